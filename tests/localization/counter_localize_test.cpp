#include "localization/counter_localize.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/routing/fat_tree_fixture.h"
#include "localization/localize.h"
#include "routing/port_groups.h"

using namespace ibburn::localization;
using namespace ibburn::routing;

namespace {

std::vector<EdgeId> out_edges(const CableIndex& cables, ibburn::topo::NodeId node, int first, int count) {
  std::vector<EdgeId> out;
  for (int p = first; p < first + count; ++p) out.push_back(cables.out_edge({node, p}));
  return out;
}

}  // namespace

TEST(PortGroups, UplinksOfALeafAndParallelCablesAreEqualsUnderAdaptiveRouting) {
  // 4 leaves x 4 hosts, 2 spines, 2 cables per leaf-spine pair: leaf ports 5..8 are uplinks.
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables(t.fabric, 200);
  AdaptiveRouter router(t.fabric, cables);
  const auto groups = equal_port_groups(t.fabric, cables, router);
  // One group per leaf (its 4 uplinks), one per spine and leaf (the 2 cables down to it).
  ASSERT_EQ(groups.size(), 4u + 2 * 4);
  EXPECT_EQ(groups[0].node, t.leaves[0]);
  EXPECT_EQ(groups[0].edges, out_edges(cables, t.leaves[0], 5, 4));
  // spine0's cables down to leaf1 (ports 3 and 4) are equals; no host port is in a group.
  bool pair = false;
  for (const auto& g : groups) {
    pair = pair || (g.node == t.spines[0] && g.edges == out_edges(cables, t.spines[0], 3, 2));
    for (EdgeId e : g.edges) EXPECT_TRUE(t.fabric.node(cables.edge(e).to.node).is_switch());
  }
  EXPECT_TRUE(pair);
}

TEST(PortGroups, StaticRoutesHaveNoEquals) {
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables(t.fabric, 200);
  LftRouter router(t.fabric, cables, t.lfts);
  EXPECT_TRUE(equal_port_groups(t.fabric, cables, router).empty());
}

namespace {

// One group of `n` edges 0..n-1, each at `data` octets with `wait` ticks.
struct Group {
  std::vector<PortGroup> groups;
  std::vector<PortLoad> load;
  explicit Group(int n, double data = 1e9, double wait = 0) {
    groups.push_back({0, {}});
    for (int i = 0; i < n; ++i) {
      groups[0].edges.push_back(static_cast<EdgeId>(i));
      load.push_back({data, wait});
    }
  }
};

}  // namespace

TEST(CounterLocalize, ALeafsSlowUplinkAmong32IsNamedWithFullConfidence) {
  Group g(32, 4e9, 0);
  g.load[7] = {1e9, 7.5e5};  // a quarter of the data, waiting 3/4 of a second in 1 us ticks
  const auto s = localize_by_counters(g.groups, g.load);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].edge, 7u);
  EXPECT_EQ(s[0].group, 0u);
  EXPECT_DOUBLE_EQ(s[0].group_data_octets, 4e9);
  EXPECT_DOUBLE_EQ(s[0].data_octets, 1e9);
  EXPECT_DOUBLE_EQ(s[0].group_wait, 0);
  EXPECT_GE(s[0].z_wait, 5);
  EXPECT_DOUBLE_EQ(s[0].confidence, 1.0);
}

TEST(CounterLocalize, OfTwoParallelCablesTheSlowOneIsNamed) {
  // Its twin took the traffic it could not carry.
  Group g(2);
  g.load[0] = {0.5e9, 5e5};
  g.load[1] = {1.5e9, 0};
  const auto s = localize_by_counters(g.groups, g.load);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].edge, 0u);
  EXPECT_GE(s[0].confidence, kConfident);
}

TEST(CounterLocalize, EqualPortsNameNothing) {
  Group g(32, 4e9, 100);
  EXPECT_TRUE(localize_by_counters(g.groups, g.load).empty());
}

TEST(CounterLocalize, NoiseWithinTheSpreadNamesNothing) {
  Group g(32, 4e9, 1000);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.03, 0.03);
  for (auto& l : g.load) l = {4e9 * (1 + jitter(rng)), 1000 * (1 + 10 * jitter(rng))};
  EXPECT_TRUE(localize_by_counters(g.groups, g.load).empty());
}

TEST(CounterLocalize, APortFedLessThatWaitedNoMoreIsNotSlow) {
  Group g(8, 4e9, 1000);
  g.load[3] = {1e9, 10};
  EXPECT_TRUE(localize_by_counters(g.groups, g.load).empty());
  Group idle_waits(8, 4e9, 0);
  idle_waits.load[3] = {1e9, 0};
  EXPECT_TRUE(localize_by_counters(idle_waits.groups, idle_waits.load).empty());
}

TEST(CounterLocalize, WithoutWaitCountersTheDataAloneIsHalfAsSure) {
  Group g(32, 4e9, -1);
  g.load[5].data_octets = 1e9;
  const auto s = localize_by_counters(g.groups, g.load);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].edge, 5u);
  EXPECT_DOUBLE_EQ(s[0].confidence, 0.5);
  EXPECT_LT(s[0].confidence, kConfident);
}

TEST(CounterLocalize, GroupsThatCarriedNothingOrWereNotReadAreNotJudged) {
  Group idle(4, 0, 0);
  EXPECT_TRUE(localize_by_counters(idle.groups, idle.load).empty());
  Group unread(4, -1, -1);
  unread.load[0].data_octets = 1e9;
  EXPECT_TRUE(localize_by_counters(unread.groups, unread.load).empty());
}
