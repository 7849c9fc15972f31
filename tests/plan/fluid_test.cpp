#include "plan/fluid.h"

#include <gtest/gtest.h>

using namespace ibburn::plan;

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
