#pragma once
// A rail-optimised two-tier fat tree in memory: `rails` rails of `leaves` leaves each, every
// host with one HCA per rail ("host3 mlx5_1" on rail 1), cabled to its rail's leaf; every leaf
// cabled to every spine (`cables` each). D-mod-K forwarding tables as opensm's fat-tree
// routing installs them. Links 4xNDR (400 Gb/s).
#include <vector>

#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::price::fixture {

struct RailFabric {
  topo::Fabric fabric;
  routing::ForwardingTables lfts;
  std::vector<std::vector<topo::NodeId>> leaves;  // by rail
  std::vector<topo::NodeId> spines;
  std::vector<std::vector<topo::NodeId>> hcas;  // by host, by rail
};

RailFabric make_rail_fabric(int rails, int leaves_per_rail, int hosts_per_leaf, int spines, int cables = 1);

}  // namespace ibburn::price::fixture
