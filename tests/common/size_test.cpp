#include "common/size.h"

#include <gtest/gtest.h>

#include <stdexcept>

using ibburn::parse_size;

TEST(Size, ParsesBinaryUnits) {
  EXPECT_EQ(parse_size("65536"), 65536u);
  EXPECT_EQ(parse_size("64K"), 65536u);
  EXPECT_EQ(parse_size("64KiB"), 65536u);
  EXPECT_EQ(parse_size("1M"), 1u << 20);
  EXPECT_EQ(parse_size("8MiB"), 8u << 20);
  EXPECT_EQ(parse_size("2G"), 2ull << 30);
}

TEST(Size, RejectsGarbageZeroAndNegatives) {
  for (const char* bad : {"", "M", "0", "0M", "1X", "1 M", "-1", " 1", "1.5M", "99999999999999999999"})
    EXPECT_THROW(parse_size(bad), std::invalid_argument) << bad;
}

TEST(Size, ErrorNamesTheTextAndTheForm) {
  try {
    parse_size("lots");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "\"lots\" is not a size (e.g. 65536, 1M, 8MiB)");
  }
}
