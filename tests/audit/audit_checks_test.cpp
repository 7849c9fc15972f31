#include "audit/audit_checks.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

using namespace ibburn;
using namespace ibburn::audit;

namespace {

constexpr uint64_t kHostGuids = 0x0002c90300001000;  // host i's port GUID: kHostGuids + i

AuditPort hca(size_t i, std::vector<uint16_t> pkeys = {0xffff}) {
  AuditPort p;
  p.node_name = fmt::format("host{:03} mlx5_0", i);
  p.node_guid = p.port_guid = kHostGuids + i;
  p.port = 1;
  p.pkeys = std::move(pkeys);
  p.mkey = 0x5eed;
  p.mkey_protect_bits = 1;
  p.mtu_cap = p.mtu_active = 4096;
  p.vl_cap = p.vls_operational = 8;
  return p;
}

AuditPort switch_port(const std::string& name, uint64_t guid, int port, int tier = 1,
                      const std::string& kind = "MQM9700") {
  AuditPort p;
  p.node_name = name;
  p.node_guid = p.port_guid = guid;
  p.port = port;
  p.is_switch = true;
  p.mkey = 0x5eed;
  p.mkey_protect_bits = 1;
  p.mtu_cap = p.mtu_active = 4096;
  p.vl_cap = p.vls_operational = 8;
  p.partition_enforcement_inbound = p.partition_enforcement_outbound = true;
  p.tier = tier;
  p.switch_kind = kind;
  return p;
}

void cable(AuditPort& a, AuditPort& b) {
  a.peer_node_name = b.node_name;
  a.peer_port = b.port;
  a.peer_is_switch = b.is_switch;
  b.peer_node_name = a.node_name;
  b.peer_port = a.port;
  b.peer_is_switch = a.is_switch;
}

// Hosts 0..n-1, host i on leaf01 port i+1; ports: host 0, leaf01[1], host 1, leaf01[2], ...
std::vector<AuditPort> leaf_with_hosts(size_t n, std::vector<uint16_t> pkeys = {0xffff}) {
  std::vector<AuditPort> out;
  for (size_t i = 0; i < n; ++i) {
    AuditPort h = hca(i, pkeys);
    AuditPort s = switch_port("leaf01", 0x0002c90300aa0001, static_cast<int>(i) + 1);
    cable(h, s);
    out.push_back(h);
    out.push_back(s);
  }
  return out;
}

AuditPort& host(std::vector<AuditPort>& ports, size_t i) { return ports.at(2 * i); }
AuditPort& leaf_port(std::vector<AuditPort>& ports, size_t i) { return ports.at(2 * i + 1); }

AuditPolicy with_partitions(const std::string& text) {
  AuditPolicy policy;
  policy.partitions = parse_partitions(text, "partitions.conf");
  return policy;
}

std::vector<Finding> of_kind(const std::vector<Finding>& findings, FindingKind kind) {
  std::vector<Finding> out;
  for (const auto& f : findings)
    if (f.kind == kind) out.push_back(f);
  return out;
}

const AuditSm kMaster{"ufm01 HCA-1", 0x0002c903000000a1, 14, 3, 0x1111};

}  // namespace

TEST(AuditPkeys, ForeignMissingAndFullNotLimitedNameTheHostPortKeyAndPartition) {
  const auto policy = with_partitions(
      "Default=0x7fff : ALL=full ;\n"
      "compute=0x0001 : ALL_CAS=full ;\n"
      "storage=0x0002 : ALL_CAS=limited, 0x0002c90300001000=full ;\n"
      "secret=0x0003 : 0x0002c90300001001=full ;\n");
  std::vector<AuditPort> ports = {
      hca(0, {0xffff, 0x8001, 0x8002, 0x8000}),  // as partitions.conf says, and an empty slot
      hca(1, {0xffff, 0x8001, 0x0002}),          // lacks secret
      hca(2, {0xffff, 0x8001, 0x8002, 0x8003}),  // full in storage, and in secret
      hca(3, {0xffff, 0x8001, 0x0002, 0x8123}),  // a key no partition declares
  };
  const auto findings = audit::audit(ports, {kMaster}, policy);

  const auto missing = of_kind(findings, FindingKind::PkeyMissing);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].severity, Severity::Error);
  EXPECT_EQ(missing[0].message,
            "host001 mlx5_0[1] lacks P_Key 0x8003 (full) of partition 'secret' (partitions.conf:4)");
  EXPECT_EQ(missing[0].ports, (std::vector<PortRef>{{"host001 mlx5_0", 1}}));
  EXPECT_EQ(missing[0].details["partition"], "secret");
  EXPECT_EQ(missing[0].details["pkey"], "0x0003");

  const auto full = of_kind(findings, FindingKind::PkeyFullNotLimited);
  ASSERT_EQ(full.size(), 1u);
  EXPECT_EQ(full[0].severity, Severity::Error);
  EXPECT_EQ(full[0].message,
            "host002 mlx5_0[1] holds P_Key 0x8002 (full) of partition 'storage' (partitions.conf:3), which makes it "
            "limited: a limited member can be reached by full members only");
  EXPECT_EQ(full[0].ports, (std::vector<PortRef>{{"host002 mlx5_0", 1}}));

  const auto foreign = of_kind(findings, FindingKind::PkeyForeign);
  ASSERT_EQ(foreign.size(), 2u);
  EXPECT_EQ(foreign[0].severity, Severity::Error);
  EXPECT_EQ(
      foreign[0].message,
      "host002 mlx5_0[1] holds P_Key 0x8003 (full) of partition 'secret' (partitions.conf:4), which does not list "
      "it");
  EXPECT_EQ(foreign[1].message,
            "host003 mlx5_0[1] holds P_Key 0x8123 (full), which no partition in partitions.conf declares");
  EXPECT_EQ(foreign[1].ports, (std::vector<PortRef>{{"host003 mlx5_0", 1}}));
  EXPECT_TRUE(foreign[1].details["partition"].is_null());
}

TEST(AuditPkeys, ManyPortsLackingOneKeyAreOneFinding) {
  const auto policy = with_partitions("Default=0x7fff : ALL=full ;\ncompute=0x0001 : ALL_CAS=full ;\n");
  std::vector<AuditPort> ports;
  for (size_t i = 0; i < 40; ++i) ports.push_back(hca(i, {0xffff}));
  const auto missing = of_kind(audit::audit(ports, {kMaster}, policy), FindingKind::PkeyMissing);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].message,
            "40 HCA ports (host000 mlx5_0[1], host001 mlx5_0[1], host002 mlx5_0[1] and 37 more) lack P_Key 0x8001 "
            "(full) of partition 'compute' (partitions.conf:2)");
  EXPECT_EQ(missing[0].ports.size(), 40u);
  EXPECT_EQ(missing[0].details["count"], 40);
}

// Without a rule for it, opensm's default partition is ALL=limited, SELF=full: only the master
// SM's own port is full there.
TEST(AuditPkeys, DefaultPartitionWithoutARule) {
  const auto policy = with_partitions("compute=0x0001 : ALL_CAS=full ;\n");
  std::vector<AuditPort> ports = {hca(0, {0xffff, 0x8001}), hca(1, {0xffff, 0x8001}), hca(2, {0x7fff, 0x8001})};
  const AuditSm sm_on_host1{"host001 mlx5_0", kHostGuids + 1, 14, 3, 0x1111};
  const auto findings = audit::audit(ports, {sm_on_host1}, policy);
  const auto full = of_kind(findings, FindingKind::PkeyFullNotLimited);
  ASSERT_EQ(full.size(), 1u);
  EXPECT_EQ(full[0].message,
            "host000 mlx5_0[1] holds P_Key 0xffff (default, full) of the default partition (opensm's own rule: "
            "partitions.conf has none), which makes it limited: a limited member can be reached by full members only");
  EXPECT_EQ(full[0].details["partition"], "Default");
  EXPECT_TRUE(of_kind(findings, FindingKind::PkeyMissing).empty());
  EXPECT_TRUE(of_kind(findings, FindingKind::PkeyForeign).empty());
}

// opensm's allow_both_pkeys: `both` is two entries, and each is looked for.
TEST(AuditPkeys, BothWantsTwoEntriesWithAllowBothPkeys) {
  auto policy = with_partitions("Default=0x7fff : ALL=full ;\nstorage=0x0002 : 0x0002c90300001000=both ;\n");
  const std::vector<AuditPort> ports = {hca(0, {0xffff, 0x7fff, 0x8002})};
  EXPECT_TRUE(of_kind(audit::audit(ports, {kMaster}, policy), FindingKind::PkeyMissing).empty());
  policy.allow_both_pkeys = true;
  const auto missing = of_kind(audit::audit(ports, {kMaster}, policy), FindingKind::PkeyMissing);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].message,
            "host000 mlx5_0[1] lacks P_Key 0x0002 (limited) of partition 'storage' (partitions.conf:2)");
  EXPECT_EQ(missing[0].details["entries"], nlohmann::json({"0x0002 (limited)"}));
}

TEST(AuditEnforcement, OffOnASwitchPortFacingAHost) {
  auto ports = leaf_with_hosts(3, {0xffff, 0x8001});  // a partition in use: enforcement matters
  leaf_port(ports, 1).partition_enforcement_inbound = false;
  AuditPort up = switch_port("leaf01", 0x0002c90300aa0001, 40);
  AuditPort spine = switch_port("spine01", 0x0002c90300bb0001, 1, 2);
  cable(up, spine);
  up.partition_enforcement_inbound = up.partition_enforcement_outbound = false;  // between switches: not told
  ports.push_back(up);
  ports.push_back(spine);
  const auto off = of_kind(audit::audit(ports, {}, {}), FindingKind::PkeyEnforcementOff);
  ASSERT_EQ(off.size(), 1u);
  EXPECT_EQ(off[0].severity, Severity::Warning);
  EXPECT_EQ(off[0].message,
            "partition enforcement is off (inbound) on leaf01[2] (to host001 mlx5_0[1]): a host there can send into "
            "partitions it is not a member of, and only the receiving HCA checks");
  EXPECT_EQ(off[0].ports, (std::vector<PortRef>{{"leaf01", 2}}));

  for (size_t i = 0; i < 3; ++i) leaf_port(ports, i).partition_enforcement_outbound = false;
  const auto all = of_kind(audit::audit(ports, {}, {}), FindingKind::PkeyEnforcementOff);
  ASSERT_EQ(all.size(), 2u);  // by the directions off: leaf01[2] both ways, the others outbound
  EXPECT_EQ(all[0].details["off"], "inbound and outbound");
  EXPECT_EQ(all[1].message,
            "partition enforcement is off (outbound) on 2 switch ports facing hosts (leaf01[1] (to host000 "
            "mlx5_0[1]), leaf01[3] (to host002 mlx5_0[1])): a host there can send into partitions it is not a member "
            "of, and only the receiving HCA checks");

  // The default partition alone: nothing to enforce.
  auto plain = leaf_with_hosts(3);
  leaf_port(plain, 0).partition_enforcement_inbound = false;
  EXPECT_TRUE(of_kind(audit::audit(plain, {}, {}), FindingKind::PkeyEnforcementOff).empty());
}

TEST(AuditMkeys, ToldOncePerSwitchKindAndOnceForTheHcas) {
  std::vector<AuditPort> ports;
  for (int p : {0, 1}) {
    ports.push_back(switch_port("leaf01", 0xa1, p));
    ports.back().mkey = 0;
  }
  ports.push_back(switch_port("leaf02", 0xa2, 0));
  ports.back().mkey_protect_bits = 0;
  ports.push_back(switch_port("leaf03", 0xa3, 0));
  ports.push_back(switch_port("leaf03", 0xa3, 5));
  ports.back().mkey = 0;  // an external port's: the switch's M_Key is its port 0's
  ports.push_back(switch_port("spine01", 0xb1, 0, 2, "QM8700"));
  for (size_t i = 0; i < 4; ++i) ports.push_back(hca(i));
  ports[6].mkey = 0;  // host000
  ports[7].mkey_protect_bits = 0;
  ports[9].mkey.reset();  // host003, not read: not counted
  ports[9].mkey_protect_bits.reset();
  AuditPolicy policy;
  policy.require_mkey = true;
  const auto mkeys = of_kind(audit::audit(ports, {}, policy), FindingKind::MkeyUnprotected);
  ASSERT_EQ(mkeys.size(), 2u);
  EXPECT_EQ(mkeys[0].severity, Severity::Error);
  EXPECT_EQ(mkeys[0].message,
            "M_Key 0 or unprotected (protect bits 0) on 2 of 3 MQM9700 switches (leaf01, leaf02): any node can "
            "reconfigure them with SMPs");
  EXPECT_EQ(mkeys[0].ports, (std::vector<PortRef>{{"leaf01", 0}, {"leaf02", 0}}));
  EXPECT_EQ(mkeys[0].details["switch_kind"], "MQM9700");
  EXPECT_EQ(mkeys[0].details["count"], 2);
  EXPECT_EQ(mkeys[0].details["of"], 3);
  EXPECT_EQ(mkeys[0].details["m_key_0"], 1);
  EXPECT_EQ(mkeys[0].details["protect_bits_0"], 1);
  EXPECT_EQ(mkeys[0].details["examples"], nlohmann::json({"leaf01", "leaf02"}));
  EXPECT_EQ(mkeys[1].message,
            "M_Key 0 or unprotected (protect bits 0) on 2 of 3 HCA ports (host000 mlx5_0[1], host001 mlx5_0[1]): any "
            "node can reconfigure them with SMPs");

  EXPECT_TRUE(of_kind(audit::audit(ports, {}, {}), FindingKind::MkeyUnprotected).empty());  // not required
}

TEST(AuditSms, MastersHostsPrioritiesKeysAndTheList) {
  const std::vector<AuditSm> sms = {
      kMaster,
      {"ufm02 HCA-1", 0x0002c903000000a2, 14, 2, kOpensmDefaultSmKey},
      {"ufm04 HCA-1", 0x0002c903000000a4, 10, 2, 0},  // a key not given to the asker: not told
      {"host007 mlx5_0", 0x0002c903000000a7, 0, 3, 0x2222},
      {"ufm03 HCA-1", 0x0002c903000000a3, 10, 2, 0x3333},
  };
  AuditPolicy policy;
  policy.sm_hosts = {"ufm01.example.com", "ufm02", "ufm03", "ufm04"};
  const auto findings = audit::audit({}, sms, policy);

  const auto list = of_kind(findings, FindingKind::SmList);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].severity, Severity::Info);
  EXPECT_EQ(list[0].message,
            "5 subnet managers answered: ufm01 HCA-1 (0x0002c903000000a1, priority 14, master); ufm02 HCA-1 "
            "(0x0002c903000000a2, priority 14, standby); ufm04 HCA-1 (0x0002c903000000a4, priority 10, standby); "
            "host007 mlx5_0 (0x0002c903000000a7, priority 0, master); ufm03 "
            "HCA-1 (0x0002c903000000a3, priority 10, standby)");
  ASSERT_EQ(list[0].details["sms"].size(), 5u);
  EXPECT_EQ(list[0].details["sms"][3]["host"], "host007");
  EXPECT_EQ(list[0].details["sms"][3]["guid"], "0x0002c903000000a7");
  EXPECT_EQ(list[0].details["sms"][1]["state"], "standby");

  const auto masters = of_kind(findings, FindingKind::SmMasters);
  ASSERT_EQ(masters.size(), 1u);
  EXPECT_EQ(masters[0].severity, Severity::Error);
  EXPECT_EQ(masters[0].message,
            "2 master subnet managers answer at once (ufm01 HCA-1 (0x0002c903000000a1, priority 14, master), host007 "
            "mlx5_0 (0x0002c903000000a7, priority 0, master)): each programs the fabric over the others' routes and "
            "LIDs");
  EXPECT_EQ(masters[0].ports, (std::vector<PortRef>{{"ufm01 HCA-1", 0}, {"host007 mlx5_0", 0}}));

  const auto outside = of_kind(findings, FindingKind::SmOutsidePolicy);
  ASSERT_EQ(outside.size(), 1u);  // ufm01 is ufm01.example.com
  EXPECT_EQ(outside[0].severity, Severity::Error);
  EXPECT_EQ(outside[0].message,
            "a subnet manager answers on host007 mlx5_0 (0x0002c903000000a7, priority 0, master): host007 is not one "
            "of the site's SM hosts (ufm01.example.com, ufm02, ufm03, ufm04)");
  EXPECT_EQ(outside[0].ports, (std::vector<PortRef>{{"host007 mlx5_0", 0}}));

  const auto equal = of_kind(findings, FindingKind::SmEqualPriority);
  ASSERT_EQ(equal.size(), 1u);
  EXPECT_EQ(equal[0].severity, Severity::Warning);
  EXPECT_EQ(
      equal[0].message,
      "the standby SM ufm02 HCA-1 (0x0002c903000000a2, priority 14, standby) has the priority of the master ufm01 "
      "HCA-1 (0x0002c903000000a1, priority 14, master): they fight over mastership when the master restarts");

  const auto keys = of_kind(findings, FindingKind::SmDefaultKey);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].severity, Severity::Warning);
  EXPECT_EQ(keys[0].ports, (std::vector<PortRef>{{"ufm02 HCA-1", 0}}));
  EXPECT_NE(keys[0].message.find("SM_Key left at opensm's default (0x1) on ufm02 HCA-1 (0x0002c903000000a2"),
            std::string::npos)
      << keys[0].message;

  EXPECT_TRUE(of_kind(audit::audit({}, sms, {}), FindingKind::SmOutsidePolicy).empty());  // no list: any host
}

// One cause, one finding: a leaf's 40 host links all at 2048 are one finding, not 40 (or 80,
// one per end).
TEST(AuditMtu, FortyHostLinksAt2048AreOneFinding) {
  auto ports = leaf_with_hosts(40);
  for (auto& p : ports) p.mtu_active = 2048;
  AuditPort up = switch_port("leaf01", 0x0002c90300aa0001, 41);
  AuditPort spine = switch_port("spine01", 0x0002c90300bb0001, 1, 2);
  cable(up, spine);
  ports.push_back(up);
  ports.push_back(spine);

  AuditPolicy site;
  site.mtu = 4096;
  const auto low = of_kind(audit::audit(ports, {}, site), FindingKind::MtuLow);
  ASSERT_EQ(low.size(), 1u);
  EXPECT_EQ(low[0].severity, Severity::Error);
  EXPECT_EQ(low[0].message,
            "40 HCA-leaf links (host000 mlx5_0[1] - leaf01[1], host001 mlx5_0[1] - leaf01[2], host002 mlx5_0[1] - "
            "leaf01[3] and 37 more) run MTU 2048, below the site's 4096");
  EXPECT_EQ(low[0].ports.size(), 80u);
  EXPECT_EQ(low[0].details["count"], 40);
  EXPECT_EQ(low[0].details["links"].size(), 40u);
  EXPECT_EQ(low[0].details["mtu_active"], 2048);
  EXPECT_EQ(low[0].details["site_mtu"], 4096);

  const auto capable = of_kind(audit::audit(ports, {}, {}), FindingKind::MtuLow);
  ASSERT_EQ(capable.size(), 1u);
  EXPECT_EQ(capable[0].severity, Severity::Warning);
  EXPECT_NE(capable[0].message.find("run MTU 2048 where both ends support 4096"), std::string::npos)
      << capable[0].message;
  EXPECT_EQ(capable[0].details["supported"], 4096);

  for (size_t i = 0; i < 40; ++i) leaf_port(ports, i).mtu_cap = 2048;  // the leaf can do no more
  EXPECT_TRUE(of_kind(audit::audit(ports, {}, {}), FindingKind::MtuLow).empty());
}

TEST(AuditMtu, EachCauseItsOwnFinding) {
  auto ports = leaf_with_hosts(8);
  host(ports, 5).mtu_active = leaf_port(ports, 5).mtu_active = 2048;
  AuditPort up = switch_port("leaf01", 0x0002c90300aa0001, 41);
  AuditPort spine = switch_port("spine01", 0x0002c90300bb0001, 1, 2);
  cable(up, spine);
  up.mtu_active = spine.mtu_active = 1024;
  ports.push_back(spine);  // listed before its peer: told once all the same
  ports.push_back(up);
  const auto low = of_kind(audit::audit(ports, {}, {}), FindingKind::MtuLow);
  ASSERT_EQ(low.size(), 2u);
  EXPECT_EQ(low[0].message, "host005 mlx5_0[1] - leaf01[6] runs MTU 2048 where both ends support 4096");
  EXPECT_EQ(low[0].ports, (std::vector<PortRef>{{"host005 mlx5_0", 1}, {"leaf01", 6}}));
  EXPECT_EQ(low[1].message, "leaf01[41] - spine01[1] runs MTU 1024 where both ends support 4096");
}

TEST(AuditVls, MixedWithinATierIsOneFindingPerTier) {
  auto ports = leaf_with_hosts(6);
  leaf_port(ports, 1).vls_operational = 4;
  leaf_port(ports, 4).vls_operational = 4;
  const auto mixed = of_kind(audit::audit(ports, {}, {}), FindingKind::VlsMixed);
  ASSERT_EQ(mixed.size(), 1u);  // the HCAs all run 8
  EXPECT_EQ(mixed[0].severity, Severity::Warning);
  EXPECT_EQ(mixed[0].message,
            "leaf ports run different numbers of operational VLs (4 on 8, 2 on 4); off the most common 8: leaf01[2], "
            "leaf01[5]");
  EXPECT_EQ(mixed[0].ports, (std::vector<PortRef>{{"leaf01", 2}, {"leaf01", 5}}));
  EXPECT_EQ(mixed[0].details["tier"], 1);
  EXPECT_EQ(mixed[0].details["ports"][0]["vl_cap"], 8);
}

TEST(Audit, ACleanFabricGivesOnlyTheSmList) {
  auto ports = leaf_with_hosts(4, {0xffff, 0x8001});
  AuditPolicy policy = with_partitions("Default=0x7fff, ipoib : ALL=full ;\ncompute=0x0001 : ALL_CAS=full ;\n");
  policy.mtu = 4096;
  policy.require_mkey = true;
  policy.sm_hosts = {"ufm01"};
  const auto findings = audit::audit(ports, {kMaster}, policy);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::SmList);
  EXPECT_EQ(exit_code_for(findings), 0);
}
