#include "audit/pkey_rules.h"

#include <gtest/gtest.h>

#include "common/file_io.h"
#include "tests/support/test_paths.h"

using namespace ibburn;
using namespace ibburn::audit;

namespace {

using Entries = std::vector<uint16_t>;

const EndPort kCa{0x0002c90300000011, NodeType::Ca, false};
const EndPort kOtherCa{0x0002c90300000022, NodeType::Ca, false};
const EndPort kSmPort{0x0002c90300000033, NodeType::Ca, true};
const EndPort kSwitch{0x0002c90300000044, NodeType::Switch, false};
const EndPort kRouter{0x0002c90300000055, NodeType::Router, false};

Entries expected_for(const std::string& text, const EndPort& port, bool allow_both = false) {
  return expected_pkeys(parse_partitions(text, "partitions.conf"), {port}, allow_both).at(0);
}

}  // namespace

TEST(PkeyRules, AnEntrysBits) {
  EXPECT_EQ(partition_key(0x8001), 0x0001);
  EXPECT_TRUE(is_full(0x8001));
  EXPECT_FALSE(is_full(0x0001));
  EXPECT_EQ(partition_key(0xffff), kDefaultPkey);
  EXPECT_EQ(partition_key(0x7fff), kDefaultPkey);
  EXPECT_FALSE(is_valid(0x0000));
  EXPECT_FALSE(is_valid(0x8000));
  EXPECT_TRUE(is_valid(0x0001));
}

TEST(PkeyRules, TwoLimitedMembersCannotTalk) {
  EXPECT_TRUE(can_talk(0x8001, 0x8001));   // full - full
  EXPECT_TRUE(can_talk(0x8001, 0x0001));   // full - limited
  EXPECT_TRUE(can_talk(0x0001, 0x8001));   // limited - full
  EXPECT_FALSE(can_talk(0x0001, 0x0001));  // limited - limited
  EXPECT_FALSE(can_talk(0x8001, 0x8002));  // two partitions
  EXPECT_TRUE(can_talk(0xffff, 0x7fff));   // the default partition, full and limited
  EXPECT_FALSE(can_talk(0x7fff, 0x7fff));
  EXPECT_FALSE(can_talk(0x8000, 0x8000));  // empty slots share no partition
  EXPECT_FALSE(can_talk(0x8000, 0x0000));
}

TEST(PkeyRules, Text) {
  EXPECT_EQ(pkey_text(0x8001), "0x8001 (full)");
  EXPECT_EQ(pkey_text(0x0001), "0x0001 (limited)");
  EXPECT_EQ(pkey_text(0xffff), "0xffff (default, full)");
  EXPECT_EQ(pkey_text(0x7fff), "0x7fff (default, limited)");
  EXPECT_EQ(pkey_text(0x8000), "0x8000 (empty)");
  EXPECT_EQ(pkey_text(0x0000), "0x0000 (empty)");
}

// With a file but no rule for it, opensm makes the default partition ALL=limited, SELF=full.
TEST(PkeyRules, DefaultPartitionWithoutARule) {
  const std::string text = "compute=0x0001 : ALL_CAS=full ;\n";
  EXPECT_EQ(expected_for(text, kCa), (Entries{0x7fff, 0x8001}));
  EXPECT_EQ(expected_for(text, kSmPort), (Entries{0x8001, 0xffff}));
  EXPECT_EQ(expected_for(text, kSwitch), (Entries{0x7fff}));
  // A rule for it goes on from opensm's own: ALL_CAS=full leaves the switches limited.
  EXPECT_EQ(expected_for("Default=0x7fff : ALL_CAS=full ;\n", kSwitch), (Entries{0x7fff}));
  EXPECT_EQ(expected_for("Default=0x7fff : ALL_CAS=full ;\n", kCa), (Entries{0xffff}));
}

TEST(PkeyRules, KeywordsSelectByNodeType) {
  const std::string text =
      "Default=0x7fff : ALL=full ;\n"
      "cas=0x1 : ALL_CAS=full ;\n"
      "switches=0x2 : ALL_SWITCHES=full ;\n"
      "routers=0x3 : ALL_ROUTERS ;\n"
      "one=0x4 : 0x0002c90300000022=full ;\n";
  EXPECT_EQ(expected_for(text, kCa), (Entries{0x8001, 0xffff}));
  EXPECT_EQ(expected_for(text, kOtherCa), (Entries{0x8001, 0x8004, 0xffff}));
  EXPECT_EQ(expected_for(text, kSwitch), (Entries{0x8002, 0xffff}));
  EXPECT_EQ(expected_for(text, kRouter), (Entries{0x0003, 0xffff}));
}

TEST(PkeyRules, BothIsTwoEntriesOnlyWithAllowBothPkeys) {
  const std::string text = "Default=0x7fff : ALL=full ;\nvlan1=0x3ff : ALL_SWITCHES=limited,0x0002c90300000011=both;\n";
  EXPECT_EQ(expected_for(text, kCa), (Entries{0x83ff, 0xffff}));
  // With it, opensm's own ALL=limited for the default partition stays beside the file's ALL=full.
  EXPECT_EQ(expected_for(text, kCa, true), (Entries{0x03ff, 0x7fff, 0x83ff, 0xffff}));
  EXPECT_EQ(expected_for("x=0x10, defmember=both : ALL ;\n", kCa, true), (Entries{0x0010, 0x7fff, 0x8010}));
}

// opensm's examples: "YetAnotherOne = 0x300 : SELF=full ;" then "... : ALL=limited ;" leaves
// the SM's own port limited (the later line wins), unless full and limited may both be held.
TEST(PkeyRules, TheLaterMemberLineWins) {
  const auto parts = parse_partitions(
      read_file(ibburn::testing::source_dir() + "/tests/audit/data/opensm-partition-config-examples.conf"), "examples");
  const EndPort server{0x123451, NodeType::Ca, false};      // ShareIO full (defmember=full)
  const EndPort client{0x123453, NodeType::Ca, false};      // ShareIO limited
  const EndPort new_member{0x123456, NodeType::Ca, false};  // NewPartition full, then ShareIO limited
  const auto got = expected_pkeys(parts, {server, client, new_member, kSmPort, kSwitch}, false);
  EXPECT_EQ(got[0], (Entries{0x0300, 0x8080, 0xffff}));
  EXPECT_EQ(got[1], (Entries{0x0080, 0x0300, 0xffff}));
  EXPECT_EQ(got[2], (Entries{0x0080, 0x0300, 0x8001, 0xffff}));
  EXPECT_EQ(got[3], (Entries{0x0300, 0xffff}));
  EXPECT_EQ(got[4], (Entries{0x0300, 0xffff}));
  const auto both = expected_pkeys(parts, {kSmPort}, true);
  EXPECT_EQ(both[0], (Entries{0x0300, 0x7fff, 0x8300, 0xffff}));  // Default ALL=limited stays too
}

TEST(PkeyRules, AGuidNamedAgainTakesTheLaterMembership) {
  const std::string text =
      "x=0x10 : ALL=full, 0x0002c90300000011=limited ;\ny=0x20 : 0x0002c90300000011, ALL_CAS=full ;\n";
  EXPECT_EQ(expected_for(text, kCa), (Entries{0x0010, 0x7fff, 0x8020}));
  EXPECT_EQ(expected_for(text, kOtherCa), (Entries{0x7fff, 0x8010, 0x8020}));
}
