#include <gtest/gtest.h>

#include "burn/progress.h"

using namespace ibburn::burn;

TEST(Progress, ShowsStageAggregateAndSlowest) {
  std::string line = progress_line(2, 5, "shift 2", 3, 60, {{0, 1, 10}, {1, 2, 2.5}, {2, 0, 7}}, {}, 2);
  EXPECT_NE(line.find("stage 2/5"), std::string::npos) << line;
  EXPECT_NE(line.find("aggregate 19.50 Gb/s"), std::string::npos) << line;
  EXPECT_NE(line.find("slowest: rank 1 -> rank 2 2.50 Gb/s, rank 2 -> rank 0 7.00 Gb/s"), std::string::npos) << line;
  EXPECT_EQ(line.find("rank 0 -> rank 1"), std::string::npos) << line;
}

TEST(Progress, NamesTheSlowestByHostAndEndpoint) {
  std::vector<EndpointInfo> eps(2);
  eps[0].host = "node0001";
  eps[0].endpoint = "mlx5_0";
  eps[1].host = "node0002";
  eps[1].endpoint = "mlx5_3";
  std::string line = progress_line(1, 1, "pairs", 1, 10, {{0, 1, 50}}, eps);
  EXPECT_NE(line.find("slowest: node0001 mlx5_0 -> node0002 mlx5_3 50.00 Gb/s"), std::string::npos) << line;
}
