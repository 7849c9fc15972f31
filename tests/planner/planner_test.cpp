#include "planner/planner.h"

#include <gtest/gtest.h>

#include "tests/routing/fat_tree_fixture.h"

using namespace ibburn::planner;
using namespace ibburn::routing;

namespace {
// Each edge's load (fraction of capacity) in one stage, recomputed here from the routes, with
// every flow at its endpoints' line rate: the planner's own bookkeeping is not the oracle.
std::vector<double> stage_loads(const CableIndex& cables, const Router& r,
                                const std::vector<ibburn::topo::PortEnd>& eps, const std::vector<PlannedFlow>& flows) {
  std::vector<double> load(cables.size(), 0.0);
  PathShares path;
  for (const auto& f : flows) {
    const double rate = std::min(cables.edge(cables.out_edge(eps[f.src])).capacity_gbps,
                                 cables.edge(cables.out_edge(eps[f.dst])).capacity_gbps);
    path.clear();
    r.route(eps[f.src], eps[f.dst], path);
    for (auto [e, share] : path) load[e] += share * rate / cables.edge(e).capacity_gbps;
  }
  return load;
}

void expect_full_cover(const PlanResult& p, const CableIndex& cables, const Router& r,
                       const std::vector<ibburn::topo::PortEnd>& eps) {
  EXPECT_EQ(p.covered, cables.size());
  for (const auto& c : p.coverage) EXPECT_GE(c.stage, 0);
  // Independently recompute each stage's loads: nothing above 100%.
  for (const auto& stage : p.stages)
    for (double load : stage_loads(cables, r, eps, stage)) EXPECT_LE(load, 1.0 + 1e-9);
}
// Two copies of `one`, side by side and unconnected: two planes, each its own subnet.
ibburn::topo::Fabric two_planes(const ibburn::topo::Fabric& one) {
  ibburn::topo::Fabric f;
  for (uint64_t k = 0; k < 2; ++k) {
    const auto base = static_cast<ibburn::topo::NodeId>(f.size());
    for (const auto& n : one.nodes()) {
      auto id = f.add_node(n.type, n.guid + (k << 40), n.description + (k ? " plane2" : " plane1"), n.num_ports);
      f.node(id).ports = n.ports;
      for (auto& p : f.node(id).ports) p.remote = {};
    }
    for (const auto& l : one.links()) f.connect({base + l.a.node, l.a.port}, {base + l.b.node, l.b.port});
  }
  return f;
}
}  // namespace

TEST(Planner, PlanesArePlannedTogetherInTheSameStagesAndNoFlowLeavesItsPlane) {
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  const auto f = two_planes(t.fabric);
  CableIndex cables(f, 200);
  AdaptiveRouter r(f, cables);
  auto eps = all_hca_ports(f);
  ASSERT_EQ(eps.size(), 32u);
  PlanResult p = make_plan(f, cables, r, eps, {});
  expect_full_cover(p, cables, r, eps);
  EXPECT_LE(p.stages.size(), 2u);  // as many as one plane needs
  const auto half = static_cast<ibburn::topo::NodeId>(t.fabric.size());
  for (const auto& stage : p.stages) {
    EXPECT_EQ(stage.size(), 32u);  // every rank of both planes in every stage
    for (const auto& flow : stage) EXPECT_EQ(eps[flow.src].node < half, eps[flow.dst].node < half);
  }
}

TEST(Planner, CoversEveryCableBothWaysWithStaticRoutes) {
  auto t = fixture::make_fat_tree(4, 4, 4);
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  auto eps = all_hca_ports(t.fabric);
  ASSERT_EQ(eps.size(), 16u);
  PlanResult p = make_plan(t.fabric, cables, r, eps, {});
  expect_full_cover(p, cables, r, eps);
  EXPECT_EQ(p.lower_bound, 1);
  EXPECT_LE(p.stages.size(), 2u);
}

TEST(Planner, CoversEveryCableWithAdaptiveRouting) {
  auto t = fixture::make_fat_tree(4, 4, 2, 2);
  CableIndex cables(t.fabric, 200);
  AdaptiveRouter r(t.fabric, cables);
  auto eps = all_hca_ports(t.fabric);
  PlanResult p = make_plan(t.fabric, cables, r, eps, {});
  expect_full_cover(p, cables, r, eps);
  EXPECT_LE(p.stages.size(), 2u);
}

TEST(Planner, LowerBoundSeesMoreUplinksThanHosts) {
  // 2 hosts per leaf but 4 uplinks: one stage can fill at most half of them.
  auto t = fixture::make_fat_tree(4, 2, 2, 2);
  CableIndex cables(t.fabric, 200);
  EXPECT_EQ(stage_lower_bound(t.fabric, cables, 0.9), 2);
  AdaptiveRouter r(t.fabric, cables);
  PlanResult p = make_plan(t.fabric, cables, r, all_hca_ports(t.fabric), {});
  // Adaptive routing spreads each flow over all 4 uplinks at 50%: no stage can reach 90%
  // on the uplinks, and the planner says so instead of pretending.
  EXPECT_LT(p.covered, cables.size());
  EXPECT_FALSE(p.notes.empty());
}

TEST(Planner, ReportsCablesNoRouteUses) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  // A cable between the two spines that no up/down route ever takes.
  t.fabric.connect({t.spines[0], 9}, {t.spines[1], 9});
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  PlanResult p = make_plan(t.fabric, cables, r, all_hca_ports(t.fabric), {});
  EXPECT_EQ(p.covered, cables.size() - 2);
  EXPECT_EQ(p.coverage[cables.out_edge({t.spines[0], 9})].stage, -1);
}
