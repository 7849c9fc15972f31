// Slurm's node names for ibburn's hosts, and what a run does to Slurm, on plain data
// (slurm/nodes.h, slurm/actions.h).
#include <gtest/gtest.h>

#include "common/error.h"
#include "slurm/host_check.h"
#include "slurm/actions.h"
#include "slurm/nodes.h"

namespace ibburn::slurm {
namespace {

// As Slurm 22.05 prints them (trimmed of fields ibburn does not read).
const char* const kScontrol =
    "NodeName=host001 Arch=x86_64 CoresPerSocket=1  CPUAlloc=0 NodeAddr=127.0.0.1 NodeHostName=vm Port=47344 "
    "OS=Linux 6.1.0 #1 SMP PREEMPT_DYNAMIC @0  RealMemory=1 State=IDLE ThreadsPerCore=1 CfgTRES=cpu=4,mem=1M\n"
    "NodeName=host002 Arch=x86_64 NodeAddr=127.0.0.1 NodeHostName=vm State=IDLE+DRAIN Partitions=test "
    "Reason=ibburn: errors_under_load: host002 mlx5_0[1] x=3 [root@2026-12-02T00:35:49]\n";

TEST(SlurmNodes, ScontrolOnelinerGivesNamesStateAndTheReasonWithoutItsStamp) {
  const auto nodes = parse_scontrol_nodes(kScontrol);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "host001");
  EXPECT_EQ(nodes[0].hostname, "vm");
  EXPECT_EQ(nodes[0].addr, "127.0.0.1");
  EXPECT_EQ(nodes[0].state, "IDLE");
  EXPECT_FALSE(nodes[0].drained());
  EXPECT_EQ(nodes[0].reason, "");
  EXPECT_TRUE(nodes[1].drained());
  EXPECT_EQ(nodes[1].reason, "ibburn: errors_under_load: host002 mlx5_0[1] x=3");
}

std::vector<SlurmNode> site() {
  return {{"gpu017", "gpu017.dc1.example.org", "10.0.0.17", "IDLE", ""},
          {"cl1-gpu018", "gpu018", "10.0.0.18", "IDLE", ""},
          {"gpu019", "gpu019", "10.0.0.19", "IDLE", ""},
          {"a1", "shared", "10.0.1.1", "IDLE", ""},
          {"a2", "shared", "10.0.1.2", "IDLE", ""},
          {"x1.dc1", "x1.dc1", "10.0.2.1", "IDLE", ""},
          {"x1.dc2", "x1.dc2", "10.0.2.2", "IDLE", ""}};
}

TEST(SlurmNodes, EachRuleGivesExactlyOneNodeOrTheHostIsUnresolved) {
  const auto r = resolve_slurm_nodes(
      {"gpu017", "gpu017.dc1.example.org", "gpu018", "10.0.0.19", "gpu019.dc1", "shared", "x1", "gpu099", "10.0.0.99"},
      site(), {});
  EXPECT_EQ(r.node_of_host, (std::map<std::string, std::string>{{"gpu017", "gpu017"},
                                                                {"gpu017.dc1.example.org", "gpu017"},
                                                                {"gpu018", "cl1-gpu018"},
                                                                {"10.0.0.19", "gpu019"},
                                                                {"gpu019.dc1", "gpu019"}}));
  ASSERT_EQ(r.unresolved.size(), 4u);  // 10.0.0.99 is no 10.0.0.x's short name
  EXPECT_EQ(r.unresolved.at("shared"), "NodeHostName shared is that of 2 Slurm nodes (a1, a2): give --slurm-node-map");
  EXPECT_EQ(r.unresolved.at("x1"),
            "the short name of NodeName x1 is that of 2 Slurm nodes (x1.dc1, x1.dc2): give --slurm-node-map");
  EXPECT_EQ(r.unresolved.at("gpu099").rfind("no Slurm node has it", 0), 0u);
}

TEST(SlurmNodes, TheMapWinsAndMustNameANodeSlurmKnows) {
  const auto map = parse_slurm_node_map("# site names\nshared a2\ngpu017 cl1-gpu018  # moved\nx1 nosuch\n", "map");
  const auto r = resolve_slurm_nodes({"shared", "gpu017", "x1"}, site(), map);
  EXPECT_EQ(r.node_of_host, (std::map<std::string, std::string>{{"shared", "a2"}, {"gpu017", "cl1-gpu018"}}));
  EXPECT_EQ(r.unresolved.at("x1"), "--slurm-node-map names nosuch, which Slurm does not know");
}

TEST(SlurmNodes, ABadMapLineNamesItsFileAndLine) {
  try {
    parse_slurm_node_map("a b\nc\n", "site.map");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("site.map:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_slurm_node_map("a b\na c\n", "site.map"), InputError);
}

std::vector<SlurmNode> cluster() {
  return {{"n1", "n1", "", "IDLE", ""},
          {"n2", "n2", "", "IDLE+DRAIN", "ibburn: errors_under_load: n2 mlx5_0[1]"},
          {"n3", "n3", "", "IDLE+DRAIN", "bad DIMM, ticket 4711"},
          {"n4", "n4", "", "MIXED+DRAIN", "ibburn: link_down: n4 mlx5_0[1]"}};
}

TEST(SlurmActions, DrainsByNodeNameReportsUnknownHostsAndNeverOverwritesAnothersReason) {
  SlurmOptions o;
  o.drain = true;
  const auto a = plan_slurm_actions(o, {{"n1", "errors_under_load: x"}, {"ghost", "link_down: y"}, {"n3", "z"}}, {},
                                    cluster(), {});
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].kind, SlurmActionKind::Drain);
  EXPECT_EQ(a[0].node, "n1");
  EXPECT_EQ(a[0].reason, "ibburn: errors_under_load: x");
  EXPECT_EQ(a[1].kind, SlurmActionKind::Unresolved);
  EXPECT_EQ(a[1].host, "ghost");
  EXPECT_EQ(a[2].kind, SlurmActionKind::Kept);
  EXPECT_EQ(a[2].reason, "bad DIMM, ticket 4711");
}

TEST(SlurmActions, ResumesOnlyWhatIbburnDrainedAndOnlyWhenAsked) {
  SlurmOptions o;
  o.resume = true;
  const auto a = plan_slurm_actions(o, {{"n1", "x"}}, {"n1", "n2", "n3", "n4"}, cluster(), {});
  ASSERT_EQ(a.size(), 3u);  // n1 is not drained: nothing to do; and without --slurm-drain nothing is drained
  EXPECT_EQ(a[0].kind, SlurmActionKind::Resume);
  EXPECT_EQ(a[0].node, "n2");
  EXPECT_EQ(a[1].kind, SlurmActionKind::Kept);
  EXPECT_EQ(a[1].node, "n3");
  EXPECT_EQ(a[2].kind, SlurmActionKind::Resume);
  EXPECT_EQ(a[2].node, "n4");
  EXPECT_TRUE(plan_slurm_actions({}, {{"n1", "x"}}, {"n2"}, cluster(), {}).empty());
}

TEST(SlurmActions, TheReasonIsOneShortLine) {
  const std::string r = slurm_reason({"h", "a\tb\nc" + std::string(300, 'x')});
  EXPECT_EQ(r.rfind("ibburn: a b c", 0), 0u);
  EXPECT_EQ(r.size(), 200u);
  EXPECT_EQ(r.substr(197), "...");
}

TEST(HostCheckSlurm, DrainsOnErrorsOnlyWithTheWorstOneAsReason) {
  host::HostReport r;
  r.findings = {{FindingKind::AcsUnreadable, Severity::Warning, "ACS not readable", {}, {}},
                {FindingKind::HcaCount, Severity::Error, "0 HCAs found, expected 1", {}, {}},
                {FindingKind::PcieDegraded, Severity::Error, "mlx5_0 at x8", {}, {}}};
  const auto d = host_check_drain(r, "gpu017");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->host, "gpu017");
  EXPECT_EQ(d->reason.rfind("host check: ", 0), 0u);
  EXPECT_NE(d->reason.find(" (and 1 more)"), std::string::npos) << d->reason;
  r.findings.erase(r.findings.begin() + 1, r.findings.end());
  EXPECT_FALSE(host_check_drain(r, "gpu017"));
}

}  // namespace
}  // namespace ibburn::slurm
