#pragma once
// The burn's endpoint findings named the way the site names the part (pure): a technician holds
// a node name, an HCA and a port, and the cable's far end, never an MPI rank. Each slow,
// failed, suspect or lost endpoint's finding becomes "host001 mlx5_0[1] (cable to leaf01[2]):
// <reason>", its ports the HCA port and the far end (so a slow or failed endpoint's host cable
// is a cables.csv row beside its drained host: common/finding_catalogue.cpp), with the rank
// and the port GUID kept in its details.
#include <cstdint>
#include <optional>
#include <vector>

#include "burn/transport.h"
#include "common/finding.h"
#include "topo/fabric.h"

namespace ibburn::localization {

// `port_guid_by_rank`: each rank's HCA port (0 = unknown: that rank's findings are left as the
// burn wrote them).
void name_endpoint_findings(std::vector<Finding>& findings, const topo::Fabric& fabric,
                            const std::vector<uint64_t>& port_guid_by_rank);

// Without a fabric (RoCE, TCP over Ethernet: no subnet to discover) the ranks' own ports name
// them: an endpoint's finding, or a port's own counters', is about its device's port,
// {"vm02 rxe0", 1} for host vm02 on "rxe0:1" (what a fabric names the HCA), and an endpoint's
// message "vm02 rxe0[1] (no cable known): <reason>". The far end stays unknown; a flow's
// findings keep their ranks, as on a fabric.
void name_endpoint_findings(std::vector<Finding>& findings, const std::vector<burn::EndpointInfo>& endpoints);

// The rank's device as a fabric would name its port: {"HOST DEVICE", PORT} from host HOST on
// endpoint "DEVICE:PORT" ("eth0" or an address: port 0); nullopt when the rank never said.
std::optional<PortRef> device_port(const burn::EndpointInfo& endpoint);

}  // namespace ibburn::localization
