#include <gtest/gtest.h>

#include "burn/progress.h"

using namespace ibburn::burn;

TEST(Progress, ShowsStageAggregateAndSlowest) {
  std::string line = progress_line(2, 5, "shift 2", 3, 60, {{0, 1, 10}, {1, 2, 2.5}, {2, 0, 7}}, 2);
  EXPECT_NE(line.find("stage 2/5"), std::string::npos) << line;
  EXPECT_NE(line.find("aggregate 19.50 Gb/s"), std::string::npos) << line;
  EXPECT_NE(line.find("slowest: 1->2 2.50 2->0 7.00"), std::string::npos) << line;
  EXPECT_EQ(line.find("0->1"), std::string::npos) << line;
}
