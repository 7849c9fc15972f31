#pragma once
// A small two-tier fat tree built in memory, with D-mod-K forwarding tables as opensm's
// fat-tree routing would install them: enough to test planning without a simulator.
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::routing::fixture {

struct FatTree {
  topo::Fabric fabric;
  ForwardingTables lfts;
  std::vector<topo::NodeId> leaves, spines, hosts;
};

// `leaves` leaves with `hosts_per_leaf` HCAs each; `spines` spines; `cables` parallel
// cables per leaf-spine pair. All links 4xHDR.
FatTree make_fat_tree(int leaves, int hosts_per_leaf, int spines, int cables = 1);

}  // namespace ibburn::routing::fixture
