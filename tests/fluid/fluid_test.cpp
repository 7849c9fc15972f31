#include "fluid/fluid.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/routing/fat_tree_fixture.h"
#include "plan/simulate.h"

using namespace ibburn::fluid;
using namespace ibburn::routing;

TEST(Fluid, MaxMinFairSharesABottleneck) {
  // Flows 0 and 1 share edge 0 (cap 100); flow 2 alone on edge 1 (cap 100) but limited
  // to 30 by demand; flow 1 also crosses edge 1.
  std::vector<FluidFlow> flows = {{{{0, 1.0}}, 100}, {{{0, 1.0}, {1, 1.0}}, 100}, {{{1, 1.0}}, 30}};
  auto r = simulate_max_min(flows, {100, 100});
  EXPECT_NEAR(r.flow_gbps[2], 30, 1e-6);
  EXPECT_NEAR(r.flow_gbps[0], 50, 1e-6);
  EXPECT_NEAR(r.flow_gbps[1], 50, 1e-6);
  EXPECT_NEAR(r.edge_gbps[0], 100, 1e-6);
  EXPECT_NEAR(r.edge_gbps[1], 80, 1e-6);
}

TEST(Fluid, SplitFlowsFillTheirSharePerEdge) {
  // One flow split 50/50 over two edges, one of them at 25% capacity: the flow is limited
  // by the slow half (2 x 25 = 50).
  std::vector<FluidFlow> flows = {{{{0, 0.5}, {1, 0.5}}, 200}};
  auto r = simulate_max_min(flows, {25, 100});
  EXPECT_NEAR(r.flow_gbps[0], 50, 1e-6);
}

TEST(Fluid, FlowsWithoutDemandGetNothing) {
  auto r = simulate_max_min({{{{0, 1.0}}, 0}}, {100});
  EXPECT_EQ(r.flow_gbps[0], 0);
}

// The split model (flows towards one switch spread together) against full path lists, on a
// fat tree with parallel cables, one leaf-spine cable at 25% and more traffic than the
// uplinks hold, so flows freeze at different bottlenecks over several rounds.
namespace {

void expect_same_as_full_paths(const Router& router, const CableIndex& cables, const fixture::FatTree& t) {
  std::unordered_map<EdgeId, double> degrade;
  const EdgeId bad = cables.out_edge({t.leaves[0], 5});  // leaf0's first uplink
  degrade[bad] = degrade[cables.reverse(bad)] = 0.25;
  const auto capacity = degraded_capacities(cables, degrade);
  std::vector<FluidFlow> full;
  std::vector<SplitFlow> split;
  const int n = static_cast<int>(t.hosts.size());
  for (int i = 0; i < n; ++i)
    for (int k : {1, 5, 11}) {
      ibburn::topo::PortEnd src{t.hosts[i], 1}, dst{t.hosts[(i + k) % n], 1};
      full.push_back(fluid_flow(cables, router, src, dst));
      split.push_back(split_flow(cables, router, src, dst));
    }
  const FluidResult a = simulate_max_min(full, capacity);
  const FluidResult b = simulate_max_min(split, router, capacity);
  ASSERT_EQ(a.flow_gbps.size(), b.flow_gbps.size());
  for (size_t f = 0; f < a.flow_gbps.size(); ++f) EXPECT_NEAR(a.flow_gbps[f], b.flow_gbps[f], 1e-6) << "flow " << f;
  for (size_t e = 0; e < a.edge_gbps.size(); ++e) EXPECT_NEAR(a.edge_gbps[e], b.edge_gbps[e], 1e-6) << "edge " << e;
  // Not a trivial case: the slow cable and the oversubscribed uplinks give distinct rates.
  const auto [lo, hi] = std::minmax_element(a.flow_gbps.begin(), a.flow_gbps.end());
  EXPECT_LT(*lo, 0.9 * *hi);
  EXPECT_GT(*lo, 0);
  EXPECT_NEAR(a.edge_gbps[bad], capacity[bad], 1e-6);
}

}  // namespace

TEST(Fluid, SplitRoutesGiveTheSameRatesAsFullPathsUnderAdaptiveRouting) {
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables(t.fabric, 200);
  AdaptiveRouter router(t.fabric, cables);
  SplitRoute r;
  router.route_split({t.hosts[0], 1}, {t.hosts[5], 1}, r);
  EXPECT_TRUE(r.split());  // the case under test: no flow holds its switch-to-switch path
  expect_same_as_full_paths(router, cables, t);
}

TEST(Fluid, SplitRoutesGiveTheSameRatesAsFullPathsUnderStaticRouting) {
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables(t.fabric, 200);
  LftRouter router(t.fabric, cables, t.lfts);
  expect_same_as_full_paths(router, cables, t);
}

// Adaptive splits: a leaf with one uplink at 25% (fixture leaf ports 5..8 are its 4 uplinks).
namespace {

struct SlowUplink {
  fixture::FatTree t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables{t.fabric, 200};
  AdaptiveRouter router{t.fabric, cables};
  EdgeId bad = cables.out_edge({t.leaves[0], 5});
  std::vector<double> capacity;
  SlowUplink() {
    std::unordered_map<EdgeId, double> degrade{{bad, 0.25}, {cables.reverse(bad), 0.25}};
    capacity = degraded_capacities(cables, degrade);
  }
  // Each of leaf0's first `n` hosts sends to a host on another leaf.
  std::vector<SplitFlow> flows_out_of_leaf0(int n) const {
    std::vector<SplitFlow> out;
    for (int h = 0; h < n; ++h)
      out.push_back(split_flow(cables, router, {t.hosts[h], 1}, {t.hosts[4 * (1 + h % 3) + h], 1}));
    return out;
  }
  double uplink(int i, const FluidResult& r) const { return r.edge_gbps[cables.out_edge({t.leaves[0], 5 + i})]; }
};

}  // namespace

TEST(Fluid, AdaptiveSplitsMoveLoadOffASlowUplinkToItsSiblings) {
  SlowUplink s;
  const double line = s.cables.edge(s.bad).capacity_gbps;
  // Four flows at line rate want all four uplinks; the slow one carries its quarter, full.
  const auto flows = s.flows_out_of_leaf0(4);
  const FluidResult fixed = simulate_max_min(flows, s.router, s.capacity, Splits::Fixed);
  const FluidResult adaptive = simulate_max_min(flows, s.router, s.capacity, Splits::Adaptive);
  for (size_t f = 0; f < flows.size(); ++f) {
    EXPECT_NEAR(fixed.flow_gbps[f], line / 4, 1e-6) << "an even split is held to 4 x the slow quarter";
    EXPECT_NEAR(adaptive.flow_gbps[f], 3.25 * line / 4, 1e-6) << "the uplinks' whole capacity, shared";
  }
  EXPECT_NEAR(s.uplink(0, adaptive), line / 4, 1e-6);
  for (int i = 1; i < 4; ++i) EXPECT_NEAR(s.uplink(i, adaptive), line, 1e-6);
}

TEST(Fluid, AdaptiveSplitsGiveFullRateWhenTheSiblingsHaveRoom) {
  SlowUplink s;
  const double line = s.cables.edge(s.bad).capacity_gbps;
  const auto flows = s.flows_out_of_leaf0(2);
  const FluidResult r = simulate_max_min(flows, s.router, s.capacity, Splits::Adaptive);
  for (double g : r.flow_gbps) EXPECT_NEAR(g, line, 1e-6);
  EXPECT_NEAR(s.uplink(0, r), line / 4, 1e-6);  // the slow port carries less ...
  for (int i = 1; i < 4; ++i) EXPECT_NEAR(s.uplink(i, r), (2 - 0.25) * line / 3, 1e-6);  // ... its siblings more
}

TEST(Fluid, AdaptiveSplitsLeaveStaticRoutesAsTheyAre) {
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables(t.fabric, 200);
  LftRouter router(t.fabric, cables, t.lfts);
  std::unordered_map<EdgeId, double> degrade;
  const EdgeId bad = cables.out_edge({t.leaves[0], 5});
  degrade[bad] = degrade[cables.reverse(bad)] = 0.25;
  const auto capacity = degraded_capacities(cables, degrade);
  std::vector<SplitFlow> flows;
  const int n = static_cast<int>(t.hosts.size());
  for (int i = 0; i < n; ++i) flows.push_back(split_flow(cables, router, {t.hosts[i], 1}, {t.hosts[(i + 5) % n], 1}));
  const FluidResult a = simulate_max_min(flows, router, capacity, Splits::Fixed);
  const FluidResult b = simulate_max_min(flows, router, capacity, Splits::Adaptive);
  EXPECT_EQ(a.flow_gbps, b.flow_gbps);
  EXPECT_EQ(a.edge_gbps, b.edge_gbps);
  EXPECT_LT(*std::min_element(a.flow_gbps.begin(), a.flow_gbps.end()), 0.5 * cables.edge(bad).capacity_gbps);
}
