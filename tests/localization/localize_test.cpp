#include "localization/localize.h"

#include <gtest/gtest.h>

#include "tests/routing/fat_tree_fixture.h"
#include "localization/probes.h"
#include "plan/simulate.h"

using namespace ibburn::localization;
using namespace ibburn::plan;
using namespace ibburn::planner;
using namespace ibburn::routing;
using namespace ibburn::topo;

TEST(Localize, NamesTheCableOnEverySlowPathAndNoHealthyOne) {
  // Edges: 0..5. Slow flows cross 2; healthy flows cross everything else.
  std::vector<ObservedFlow> obs = {
      {{{0, 1}, {2, 1}, {3, 1}}, true},
      {{{1, 1}, {2, 1}, {4, 1}}, true},
      {{{0, 1}, {3, 1}}, false},
      {{{1, 1}, {4, 1}, {5, 1}}, false},
  };
  auto s = localize(obs, 6);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].edge, 2u);
  EXPECT_EQ(s[0].slow_explained, 2u);
  EXPECT_DOUBLE_EQ(s[0].confidence, 1.0);
}

TEST(Localize, NothingSlowNothingNamed) { EXPECT_TRUE(localize({{{{0, 1}}, false}}, 1).empty()); }

TEST(Localize, SimulatedBurnWithOneCableAt25PercentNamesIt) {
  auto t = fixture::make_fat_tree(4, 4, 4);
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  auto eps = all_hca_ports(t.fabric);
  PlanResult plan = make_plan(t.fabric, cables, r, eps, {});
  for (PortEnd bad_port : {PortEnd{t.leaves[1], 6}, PortEnd{t.spines[2], 4}}) {
    EdgeId bad = cables.out_edge(bad_port);
    auto rep = simulate_plan(t.fabric, cables, r, eps, plan.stages, {{bad, 0.25}}, {});
    ASSERT_FALSE(rep.suspects.empty());
    EXPECT_EQ(rep.suspects[0].edge, bad) << cables.describe(t.fabric, rep.suspects[0].edge);
    EXPECT_GE(rep.suspects[0].confidence, 0.5);
  }
}

TEST(Localize, HealthyFabricHasNoSlowFlows) {
  auto t = fixture::make_fat_tree(4, 4, 4);
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  auto eps = all_hca_ports(t.fabric);
  PlanResult plan = make_plan(t.fabric, cables, r, eps, {});
  auto rep = simulate_plan(t.fabric, cables, r, eps, plan.stages, {}, {});
  for (const auto& f : rep.flows) EXPECT_FALSE(f.slow);
  EXPECT_TRUE(rep.suspects.empty());
  EXPECT_EQ(rep.probe_stages, 0);
}

TEST(Localize, TwoCulpritsOnDifferentFlowsAreNotTies) {
  // Slow flows {0,1} cross edge 2 and {3,4} cross edge 5: two culprits, each certain.
  std::vector<ObservedFlow> obs = {
      {{{0, 1}, {2, 1}}, true},
      {{{1, 1}, {2, 1}}, true},
      {{{3, 1}, {5, 1}}, true},
      {{{4, 1}, {5, 1}}, true},
      {{{0, 1}, {1, 1}, {3, 1}, {4, 1}}, false},
  };
  auto s = localize(obs, 6);
  ASSERT_EQ(s.size(), 2u);
  for (const auto& x : s) {
    EXPECT_TRUE(x.edge == 2 || x.edge == 5) << x.edge;
    EXPECT_TRUE(x.tied.empty());
    EXPECT_DOUBLE_EQ(x.confidence, 1.0);
  }
}

TEST(Localize, CablesOnExactlyTheSameSlowFlowsAreTied) {
  std::vector<ObservedFlow> obs = {{{{0, 1}, {1, 1}, {2, 1}}, true}, {{{2, 1}}, false}};
  auto s = localize(obs, 3);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].tied.size(), 1u);  // edges 0 and 1; edge 2 has healthy evidence
  EXPECT_DOUBLE_EQ(s[0].confidence, 0.5);
  EXPECT_TRUE(ambiguous(s));
}

TEST(ProbeShifts, AlternateForwardAndBackwardSkippingUsedPairs) {
  ProbeShifts p({10, 11, 12, 13, 14, 15});
  auto plus1 = p.next();
  ASSERT_EQ(plus1.size(), 6u);
  EXPECT_EQ(plus1[0], (PlannedFlow{10, 11}));
  auto minus1 = p.next();
  ASSERT_EQ(minus1.size(), 6u);
  EXPECT_EQ(minus1[0], (PlannedFlow{10, 15}));
  ProbeShifts q({0, 1, 2, 3});
  for (int i = 0; i < 4; ++i) q.mark_used(i, (i + 1) % 4);  // shift +1 already burned
  EXPECT_EQ(q.next()[0], (PlannedFlow{0, 3}));              // so -1 comes first
  int stages = 1;
  while (!q.next().empty()) ++stages;
  EXPECT_EQ(stages, 2);  // then +2 (== -2 for 4 ranks); nothing is left
}
