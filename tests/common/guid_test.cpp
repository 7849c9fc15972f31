#include "common/guid.h"

#include <gtest/gtest.h>

using namespace ibburn;

TEST(Guid, WrittenAsOpensmWritesIt) {
  EXPECT_EQ(Guid{0x0002c90300000001}.text(), "0x0002c90300000001");
  EXPECT_EQ(Guid{0}.text(), "0x0000000000000000");
  EXPECT_EQ(Guid{0xfedcba9876543210}.digits(), "fedcba9876543210");
  EXPECT_EQ(fmt::format("GUID {}.", Guid{0xab}), "GUID 0x00000000000000ab.");
}

TEST(Guid, ParsesWhatItWritesAndShortForms) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{0x0002c90300000001}, ~uint64_t{0}})
    EXPECT_EQ(Guid::parse(Guid{v}.text()), Guid{v});
  EXPECT_EQ(Guid::parse("0XABCDEF"), Guid{0xabcdef});
  EXPECT_EQ(Guid::parse("2c903"), Guid{0x2c903});
}

TEST(Guid, RefusesWhatIsNoGuid) {
  for (const char* bad : {"", "0x", "0x0002c90300000001f", "xyz", "0x12 ", "-1", "0x1g"})
    EXPECT_EQ(Guid::parse(bad), std::nullopt) << bad;
}
