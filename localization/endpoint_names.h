#pragma once
// The burn's endpoint findings named the way the site names the part (pure): a technician holds
// a node name, an HCA and a port, and the cable's far end, never an MPI rank. Each slow,
// failed, suspect or lost endpoint's finding becomes "host001 mlx5_0[1] (cable to leaf01[2]):
// <reason>", its ports the HCA port and the far end (so a slow or failed endpoint's host cable
// is a cables.csv row beside its drained host: common/finding_catalogue.cpp), with the rank
// and the port GUID kept in its details.
#include <cstdint>
#include <vector>

#include "common/finding.h"
#include "topo/fabric.h"

namespace ibburn::localization {

// `port_guid_by_rank`: each rank's HCA port (0 = unknown: that rank's findings are left as the
// burn wrote them).
void name_endpoint_findings(std::vector<Finding>& findings, const topo::Fabric& fabric,
                            const std::vector<uint64_t>& port_guid_by_rank);

}  // namespace ibburn::localization
