#pragma once
// Balance of the programmed routes (pure): how many HCA LIDs each switch port is the table's
// choice for, across ports the fabric's shape makes equals (routing/port_groups.h: a leaf's
// up-ports, a spine's up-ports, parallel cables). Under all-to-all each port carries traffic
// in proportion to its destinations, so the group runs at its mean over its max.
#include <cstdint>
#include <vector>

#include "route_check/lid_owners.h"
#include "routing/cable_index.h"
#include "routing/port_groups.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::route_check {

struct PortLoad {
  routing::EdgeId edge;
  uint32_t destinations;
};

struct Imbalance {
  topo::NodeId sw;
  std::vector<PortLoad> ports;  // the group's, in port order
  double max_over_min;          // infinity when a port carries none
  double mean_over_max;         // the group's share of its design under all-to-all
};

// Destinations routed out of each edge, by EdgeId (HCA LIDs only).
std::vector<uint32_t> destinations_by_edge(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                           const routing::ForwardingTables& lfts, const LidOwners& owners);

// The groups whose max over min exceeds `ratio`.
std::vector<Imbalance> unbalanced_groups(const std::vector<routing::PortGroup>& groups,
                                         const std::vector<uint32_t>& by_edge, double ratio);

}  // namespace ibburn::route_check
