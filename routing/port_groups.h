#pragma once
// Switch ports the routing treats as equals: under adaptive routing a switch spreads the
// traffic towards a destination over all its next hops on shortest paths, so egress ports
// that are next hops towards exactly the same destinations (a leaf's uplinks, a spine's
// uplinks towards the core, a core's links into one pod, parallel cables between two
// switches) share the same traffic and should count the same data. Derived from the router's
// splits, not from names; a router without splits (static forwarding tables) has no groups.
#include <vector>

#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::routing {

struct PortGroup {
  topo::NodeId node = 0;      // the switch
  std::vector<EdgeId> edges;  // out of its ports, at least two, in port order
};

// Destinations are the switches with an HCA cabled to them (where flows end). Groups are
// ordered by switch, then by first port.
std::vector<PortGroup> equal_port_groups(const topo::Fabric& fabric, const CableIndex& cables, const Router& router);

}  // namespace ibburn::routing
