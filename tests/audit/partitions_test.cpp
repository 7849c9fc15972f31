#include "audit/partitions.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "tests/support/test_paths.h"

using namespace ibburn;
using namespace ibburn::audit;

namespace {

Partitions parse_data(const std::string& name) {
  const std::string path = ibburn::testing::source_dir() + "/tests/audit/data/" + name;
  return parse_partitions(read_file(path), name);
}

// The InputError a text raises, for its line and reason.
InputError error_of(const std::string& text) {
  try {
    parse_partitions(text, "partitions.conf");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError("", 0, "");
}

void expect_member(const PartitionMember& m, PartitionMember::Kind kind, uint64_t guid, Membership membership) {
  EXPECT_EQ(m.kind, kind);
  EXPECT_EQ(m.guid, guid);
  EXPECT_EQ(m.membership, membership);
}

}  // namespace

TEST(Partitions, TheTypicalDefaultLine) {
  const auto p = parse_partitions("Default=0x7fff, ipoib : ALL=full ;\n", "partitions.conf");
  EXPECT_EQ(p.file, "partitions.conf");
  ASSERT_EQ(p.partitions.size(), 1u);
  EXPECT_EQ(p.partitions[0].name, "Default");
  EXPECT_EQ(p.partitions[0].pkey, 0x7fff);
  EXPECT_EQ(p.partitions[0].line, 1);
  ASSERT_EQ(p.partitions[0].members.size(), 1u);
  expect_member(p.partitions[0].members[0], PartitionMember::Kind::All, 0, Membership::Full);
}

// bentwire/ib-pkey-setup writes its P_Keys with the full bit, which is each member's, not the
// partition's: opensm keeps the low 15 bits.
TEST(Partitions, RealFileWithFullBitKeys) {
  const auto p = parse_data("ib-pkey-setup.partitions.conf");
  ASSERT_EQ(p.partitions.size(), 5u);
  const std::pair<const char*, uint16_t> want[] = {
      {"Default", 0x7fff}, {"DMZ", 0x0001}, {"private0", 0x0002}, {"private1", 0x0003}, {"ipoib", 0x1000}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(p.partitions[i].name, want[i].first);
    EXPECT_EQ(p.partitions[i].pkey, want[i].second) << want[i].first;
    EXPECT_EQ(p.partitions[i].line, static_cast<int>(i) + 1);
    ASSERT_EQ(p.partitions[i].members.size(), 2u);
    expect_member(p.partitions[i].members[0], PartitionMember::Kind::All, 0, Membership::Full);
    expect_member(p.partitions[i].members[1], PartitionMember::Kind::Self, 0, Membership::Full);
  }
  EXPECT_EQ(find_partition(p, 0x8001), &p.partitions[1]);  // by the key, either membership
  EXPECT_EQ(find_partition(p, 0x0004), nullptr);
}

TEST(Partitions, RealFileWithSpacesAroundEveryDelimiter) {
  const auto p = parse_data("esos.partitions.conf");
  ASSERT_EQ(p.partitions.size(), 1u);
  EXPECT_EQ(p.partitions[0].name, "Default");
  EXPECT_EQ(p.partitions[0].pkey, 0x7fff);
  ASSERT_EQ(p.partitions[0].members.size(), 1u);
  expect_member(p.partitions[0].members[0], PartitionMember::Kind::All, 0, Membership::Full);
}

// opensm's own examples: definitions of one P_Key merged under its first name, a definition's
// defmember for its own members only, an abbreviated membership, a partition given no P_Key
// (opensm's counter gives it 0x0001), multicast groups over several lines.
TEST(Partitions, OpensmsOwnExamples) {
  const auto p = parse_data("opensm-partition-config-examples.conf");
  ASSERT_EQ(p.partitions.size(), 4u);

  const Partition& def = p.partitions[0];
  EXPECT_EQ(def.name, "Default");
  EXPECT_EQ(def.pkey, 0x7fff);
  EXPECT_EQ(def.line, 1);
  ASSERT_EQ(def.members.size(), 6u);  // lines 1, 2 and 24 (the mgid lines add no member)
  expect_member(def.members[0], PartitionMember::Kind::All, 0, Membership::Limited);
  expect_member(def.members[1], PartitionMember::Kind::Self, 0, Membership::Full);
  expect_member(def.members[3], PartitionMember::Kind::AllSwitches, 0, Membership::Full);
  expect_member(def.members[5], PartitionMember::Kind::All, 0, Membership::Full);

  const Partition& fresh = p.partitions[1];
  EXPECT_EQ(fresh.name, "NewPartition");
  EXPECT_EQ(fresh.pkey, 0x0001);
  EXPECT_EQ(fresh.line, 4);
  ASSERT_EQ(fresh.members.size(), 3u);
  expect_member(fresh.members[0], PartitionMember::Kind::Guid, 0x123456, Membership::Full);
  expect_member(fresh.members[1], PartitionMember::Kind::Guid, 0x3456789034, Membership::Limited);  // "=limi"
  expect_member(fresh.members[2], PartitionMember::Kind::Guid, 0x2134af2306, Membership::Limited);

  const Partition& another = p.partitions[2];
  EXPECT_EQ(another.name, "YetAnotherOne");
  EXPECT_EQ(another.pkey, 0x300);
  EXPECT_EQ(another.line, 6);
  ASSERT_EQ(another.members.size(), 2u);

  const Partition& share = p.partitions[3];
  EXPECT_EQ(share.name, "ShareIO");
  EXPECT_EQ(share.pkey, 0x80);
  EXPECT_EQ(share.line, 9);
  ASSERT_EQ(share.members.size(), 13u);
  // As the example's comments say: 0x123453, 0x123454, 0x123456, 0x123457 and 0x12345c limited.
  for (const auto& m : share.members) {
    const bool limited =
        m.guid == 0x123453 || m.guid == 0x123454 || m.guid == 0x123456 || m.guid == 0x123457 || m.guid == 0x12345c;
    EXPECT_EQ(m.membership, limited ? Membership::Limited : Membership::Full) << std::hex << m.guid;
  }
}

// quattor/configuration-modules-core, ncm-ofed/src/main/resources/tests/regexps/partitions/base:
// the two lines its partitions.conf template renders (its regexps, without ^ and $).
TEST(Partitions, RenderedByQuattor) {
  const auto p = parse_partitions(
      "default=0x7fff,ipoib,rate=7,mtu=5 : ALL=full;\n"
      "vlan1=0x3ff : ALL_SWITCHES=limited,0x12345=both;\n",
      "partitions.conf");
  ASSERT_EQ(p.partitions.size(), 2u);
  EXPECT_EQ(p.partitions[0].name, "default");
  EXPECT_EQ(p.partitions[1].pkey, 0x3ff);
  ASSERT_EQ(p.partitions[1].members.size(), 2u);
  expect_member(p.partitions[1].members[0], PartitionMember::Kind::AllSwitches, 0, Membership::Limited);
  expect_member(p.partitions[1].members[1], PartitionMember::Kind::Guid, 0x12345, Membership::Both);
}

// openstack-archive/fuel-plugin-mellanox, doc/source/guide.rst: its partitions.conf example
// (default partition under another name, defmember=full), then two of its UFM lines.
TEST(Partitions, FromTheFuelMellanoxGuide) {
  const auto p = parse_partitions(
      "    management=0x7fff,ipoib, sl=0, defmember=full : ALL, ALL_SWITCHES=full,SELF=full;\n"
      "    vlan1=0x1, ipoib, sl=0, defmember=full : ALL;\n"
      "    vlan2=0x2, ipoib, sl=0, defmember=full : ALL;\n"
      "      vlan4=0x4, ipoib, sl=0, defmember=full: SELF;\n"
      "      vlan20=0x14, ipoib, sl=0, defmember=full: SELF;\n",
      "partitions.conf");
  ASSERT_EQ(p.partitions.size(), 5u);
  EXPECT_EQ(p.partitions[0].name, "management");
  EXPECT_EQ(p.partitions[0].pkey, 0x7fff);
  expect_member(p.partitions[0].members[0], PartitionMember::Kind::All, 0, Membership::Full);
  EXPECT_EQ(p.partitions[4].pkey, 0x14);
  expect_member(p.partitions[4].members[0], PartitionMember::Kind::Self, 0, Membership::Full);
}

TEST(Partitions, MembersOverLinesCommentsNoneAndDecimal) {
  const auto p = parse_partitions(
      "# site partitions\n"
      "storage = 0x0002 , defmember=both :  # storage servers\n"
      "   0x0002c9030001a2b3=full,\n"
      "   0x0002c9030001a2b4 ,\n"
      "   ALL_CAS=limited, ALL_ROUTERS ;\n"
      "spare=32769 : NONE ;  empty=5 : ;\n"
      "0x8003 : SELF ;\n",
      "partitions.conf");
  ASSERT_EQ(p.partitions.size(), 4u);
  const Partition& storage = p.partitions[0];
  EXPECT_EQ(storage.line, 2);
  ASSERT_EQ(storage.members.size(), 4u);
  expect_member(storage.members[0], PartitionMember::Kind::Guid, 0x0002c9030001a2b3, Membership::Full);
  expect_member(storage.members[1], PartitionMember::Kind::Guid, 0x0002c9030001a2b4, Membership::Both);
  expect_member(storage.members[2], PartitionMember::Kind::AllCas, 0, Membership::Limited);
  expect_member(storage.members[3], PartitionMember::Kind::AllRouters, 0, Membership::Both);
  EXPECT_EQ(p.partitions[1].pkey, 0x0001);  // 32769 = 0x8001
  EXPECT_TRUE(p.partitions[1].members.empty());
  EXPECT_EQ(p.partitions[2].pkey, 5);
  EXPECT_EQ(p.partitions[2].line, 6);
  EXPECT_EQ(p.partitions[3].name, "");  // a P_Key alone
  EXPECT_EQ(p.partitions[3].pkey, 0x0003);
  expect_member(p.partitions[3].members[0], PartitionMember::Kind::Self, 0, Membership::Limited);
}

// A definition without a P_Key joins the partition of its name, else takes the next key free.
TEST(Partitions, GeneratedKeysAsOpensmGivesThem) {
  const auto p = parse_partitions(
      "taken=0x1 : ALL ;\n"
      "fresh : 0x10=full ;\n"
      "fresh : 0x11 ;\n"
      "other : SELF ;\n",
      "partitions.conf");
  ASSERT_EQ(p.partitions.size(), 3u);
  EXPECT_EQ(p.partitions[1].name, "fresh");
  EXPECT_EQ(p.partitions[1].pkey, 0x0002);
  EXPECT_EQ(p.partitions[1].members.size(), 2u);
  EXPECT_EQ(p.partitions[2].pkey, 0x0003);
}

TEST(Partitions, BadLinesAreNamedWithTheirLineAndReason) {
  struct Case {
    const char* text;
    int line;
    const char* reason;
  };
  const Case cases[] = {
      {"Default=0x7fff, ipoib : ALL=full ;\nstorage=0x0002, mtu=4, bogus : ALL ;\n", 2,
       "unknown partition flag 'bogus'"},
      {"Default=0x7fff : ALL ;\n\nx=0x2 : 0x00zz ;\n", 3,
       "'0x00zz' is not a port GUID, nor ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF or NONE"},
      {"x=0x18001 : ALL ;\n", 1, "P_Key 0x18001 does not fit 16 bits"},
      {"x=0x8000 : ALL ;\n", 1, "P_Key 0x8000 has no partition key: its low 15 bits are 0"},
      {"x=0x10y : ALL ;\n", 1, "P_Key '0x10y' is not a number"},
      {"a=0x10 : ALL ;\nb=0x20 : ALL ;\nb=0x10 : SELF ;\n", 3,
       "P_Key 0x0010 is partition 'a' already (line 1), not 'b'"},
      {"a : ALL ;\nb=0x1 : SELF ;\n", 2,
       "P_Key 0x0001 is partition 'a' already (line 1: opensm gave it that key), not 'b'"},
      {"Default=0x7fff ALL=full ;\n", 1,
       "'Default=0x7fff ALL=full' is not a partition's definition: no ':' before its members"},
      {"# no end\nDefault=0x7fff : ALL=full\n\n", 2, "the definition of partition 'Default' has no closing ';'"},
      {"Default=0x7fff : ALL=full\nstorage=0x2 : ALL ;\n", 2,
       "'storage=0x2 : ALL' is not a member: is the ';' ending the definition on line 1 missing?"},
      {"x=0x2 : ALL=fulll ;\n", 1,
       "membership 'fulll' of ALL is not full, limited or both (opensm would take it as limited)"},
      {"x=0x2, defmember=all : ALL ;\n", 1, "defmember 'all' is not full, limited or both"},
      {"x=0x2, ipoib=1 : ALL ;\n", 1, "partition flag 'ipoib' takes no value"},
      {"x=0x2, mtu=big : ALL ;\n", 1, "partition flag 'mtu' needs a number, not 'big'"},
      {"x=0x2 : 0 ;\n", 1, "port GUID 0 names no port"},
      {"storage=0x0002 :\n  0x0002c9030001a2b3=full,\n  0x0002c9030001a2bg ;\n", 3,
       "'0x0002c9030001a2bg' is not a port GUID, nor ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF or NONE"},
      // Host names are no members: opensm refuses the line ("bad PortGUID") and falls back
      // to the default partition alone.
      {"Default=0x7fff, ipoib: ALL_SWITCHES=full, ALL_CAS=full;\nHPC=0x0001: hpc-node-[01-64]=full;\n", 2,
       "'hpc-node-[01-64]' is not a port GUID, nor ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF or NONE"},
  };
  for (const auto& c : cases) {
    const InputError e = error_of(c.text);
    EXPECT_EQ(e.file(), "partitions.conf") << c.text;
    EXPECT_EQ(e.line(), c.line) << c.text;
    EXPECT_EQ(e.reason(), c.reason) << c.text;
  }
  EXPECT_STREQ(error_of("x=0x8000 : ALL ;\n").what(),
               "partitions.conf:1: P_Key 0x8000 has no partition key: its low 15 bits are 0");
}

TEST(Partitions, OneNameForOneKeyTwiceIsOnePartition) {
  const auto p = parse_partitions("a=0x10 : SELF=full ;\na=0x10 : ALL ;\n=0x10 : 0x5 ;\n", "partitions.conf");
  ASSERT_EQ(p.partitions.size(), 1u);
  EXPECT_EQ(p.partitions[0].members.size(), 3u);
  EXPECT_EQ(p.partitions[0].line, 1);
}
