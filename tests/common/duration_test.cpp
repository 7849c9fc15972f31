#include "common/duration.h"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using ibburn::parse_duration;

TEST(Duration, ParsesUnits) {
  EXPECT_EQ(parse_duration("500ms"), 500ms);
  EXPECT_EQ(parse_duration("10s"), 10s);
  EXPECT_EQ(parse_duration("5m"), 5min);
  EXPECT_EQ(parse_duration("1h30m"), 90min);
  EXPECT_EQ(parse_duration("60"), 60s);
  EXPECT_EQ(parse_duration("1.5s"), 1500ms);
}

TEST(Duration, RejectsGarbage) {
  for (const char* bad : {"", "s", "10x", "1h2", "-5s", "abc"})
    EXPECT_THROW(parse_duration(bad), std::invalid_argument) << bad;
}
