#include "routing/routing.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/routing/fat_tree_fixture.h"

using namespace ibburn::routing;
using namespace ibburn::topo;

TEST(LftRouter, FollowsTablesHopByHop) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  PathShares path;
  // host0 (leaf0) -> host3 (leaf1): host link, leaf0 uplink (3 mod 2 = 1 -> spine1), spine1
  // down to leaf1, leaf1 to host3.
  r.route({t.hosts[0], 1}, {t.hosts[3], 1}, path);
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(cables.edge(path[1].first).to.node, t.spines[1]);
  EXPECT_EQ(cables.edge(path[3].first).to, (PortEnd{t.hosts[3], 1}));
  path.clear();
  r.route({t.hosts[0], 1}, {t.hosts[1], 1}, path);  // same leaf: two hops
  EXPECT_EQ(path.size(), 2u);
}

TEST(LftRouter, NamesTheSwitchWithoutARoute) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  t.lfts.by_switch_guid[t.fabric.node(t.leaves[0]).guid][t.fabric.node(t.hosts[3]).ports[1].lid] =
      ForwardingTables::kNoRoute;
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  PathShares path;
  try {
    r.route({t.hosts[0], 1}, {t.hosts[3], 1}, path);
    FAIL();
  } catch (const RoutingError& e) {
    EXPECT_NE(std::string(e.what()).find("leaf0 has no route"), std::string::npos) << e.what();
  }
}

TEST(AdaptiveRouter, SplitsEvenlyOverParallelShortestPaths) {
  auto t = fixture::make_fat_tree(2, 2, 2, 2);  // 4 uplinks per leaf
  CableIndex cables(t.fabric, 200);
  AdaptiveRouter r(t.fabric, cables);
  PathShares path;
  r.route({t.hosts[0], 1}, {t.hosts[2], 1}, path);
  std::map<std::pair<NodeId, NodeId>, double> per_hop;
  double total_up = 0;
  for (auto [e, share] : path) {
    if (cables.edge(e).from.node == t.leaves[0]) {
      EXPECT_DOUBLE_EQ(share, 0.25);
      total_up += share;
    }
  }
  EXPECT_DOUBLE_EQ(total_up, 1.0);
  EXPECT_EQ(path.size(), 1u + 4 + 4 + 1);
}
