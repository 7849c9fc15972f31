#include <gtest/gtest.h>

#include "report/bandwidth_series.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {
burn::DirectionResult direction(int from, int to, std::vector<double> samples) {
  burn::DirectionResult d;
  d.from = from, d.to = to, d.samples_gbps = std::move(samples);
  return d;
}
}  // namespace

TEST(ReportBandwidth, QuantilesInterpolate) {
  std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(quantile(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile(v, 0), 1);
  EXPECT_DOUBLE_EQ(quantile(v, 1), 4);
  EXPECT_NEAR(quantile(v, 0.1), 1.3, 1e-12);
  std::vector<double> none;
  EXPECT_EQ(quantile(none, 0.5), 0);
}

// Four directions over four seconds; rank 2 -> 3 sags to 100 Gb/s in second 3 but its mean
// (325) is above rank 1 -> 0's steady 300: the sag ranks it slowest.
TEST(ReportBandwidth, PerSecondSpreadAndTheSaggingFlowFirst) {
  std::vector<burn::EndpointInfo> eps(4);
  for (int r = 0; r < 4; ++r) eps[r].host = "gpu00" + std::to_string(r), eps[r].endpoint = "mlx5_0:1";
  eps[0].rate_gbps = eps[1].rate_gbps = eps[2].rate_gbps = 400;
  eps[3].rate_gbps = 200;  // the slower end sets a pair's line rate
  burn::StageResult st;
  st.index = 2;
  st.name = "pairs";
  burn::FlowResult f1, f2, f3;
  f1.directions = {direction(0, 1, {390, 392, 391, 390}), direction(1, 0, {300, 300, 300, 300})};
  f2.directions = {direction(2, 3, {400, 400, 100, 400})};
  f3.directions = {direction(3, 2, {})};  // failed: no samples
  st.flows = {f1, f2, f3};
  const auto out = stage_bandwidth({st}, eps, 2);
  ASSERT_EQ(out.size(), 1u);
  const auto& b = out[0];
  EXPECT_EQ(b.stage, 2);
  EXPECT_EQ(b.name, "pairs");
  EXPECT_DOUBLE_EQ(b.line_rate, 400);
  ASSERT_EQ(b.seconds.size(), 4u);
  EXPECT_EQ(b.seconds[2].flows, 3);
  EXPECT_DOUBLE_EQ(b.seconds[2].min, 100);
  EXPECT_DOUBLE_EQ(b.seconds[2].median, 300);
  EXPECT_DOUBLE_EQ(b.seconds[2].max, 391);
  EXPECT_DOUBLE_EQ(b.seconds[0].median, 390);
  ASSERT_EQ(b.slowest.size(), 2u);
  EXPECT_EQ(b.slowest[0].name, burn::direction_name(eps, 2, 3));
  EXPECT_DOUBLE_EQ(b.slowest[0].lowest, 100);
  EXPECT_EQ(b.slowest[0].gbps, (std::vector<double>{400, 400, 100, 400}));
  EXPECT_EQ(b.slowest[1].name, burn::direction_name(eps, 1, 0));
}
