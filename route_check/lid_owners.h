#pragma once
// Which port holds each LID (pure): an HCA port its LMC range, a switch its port 0's.
#include <cstdint>
#include <vector>

#include "topo/fabric.h"

namespace ibburn::route_check {

struct LidOwners {
  std::vector<topo::PortEnd> by_lid;  // indexed by LID; invalid where no port holds it
  std::vector<uint16_t> ca_lids;      // every LID an HCA port holds, ascending
  topo::PortEnd owner(uint16_t lid) const { return lid < by_lid.size() ? by_lid[lid] : topo::PortEnd{}; }
};

LidOwners lid_owners(const topo::Fabric& fabric);

}  // namespace ibburn::route_check
