// The job's pure parts on plain data: errors under load from two snapshots, coverage from
// the switches' data counters against the modelled routes, the drain and cable lists, and
// what changed since the previous run.
#include <gtest/gtest.h>

#include "common/finding_details.h"
#include "counters/counter_delta.h"
#include "routing/cable_index.h"
#include "report/history.h"
#include "run/counter_evidence.h"
#include "run/service_actions.h"
#include "tests/routing/fat_tree_fixture.h"

namespace ibburn::run {
namespace {

using counters::Counter;

counters::PortSample port(const std::string& node, uint64_t guid, int port, std::optional<PortRef> peer = {}) {
  counters::PortSample p;
  p.node = node;
  p.node_guid = guid;
  p.port = port;
  p.peer = peer;
  p.reachable = true;
  return p;
}

// One port's snapshots before and after a stage window.
struct Window {
  counters::Snapshot before, after;
  void add(counters::PortSample p, std::map<Counter, std::pair<uint64_t, uint64_t>> values) {
    counters::PortSample b = p;
    for (auto [c, v] : values) {
      b.counters.set(c, v.first, 64);
      p.counters.set(c, v.second, 64);
    }
    before.ports.push_back(b);
    after.ports.push_back(p);
  }
  std::vector<counters::PortDelta> deltas() {
    after.time_ms = before.time_ms + 60'000;
    return counters::compute_deltas(before, after);
  }
};

TEST(ErrorsUnderLoad, SymbolErrorsAboveTheRateNameBothEndsWithTheBitsMoved) {
  Window w;
  // 1e12 bits received: 5 symbol errors is 5e-12 per bit, above 1e-12.
  w.add(port("leaf01", 1, 5, PortRef{"spine01", 1}), {{Counter::SymbolErrorCounter, {10, 15}},
                                                      {Counter::PortRcvData, {0, 31'250'000'000}},
                                                      {Counter::PortXmitData, {0, 1}}});
  // Same errors over 100x the bits: 5e-14, within the rate.
  w.add(port("leaf01", 1, 6, PortRef{"spine02", 1}), {{Counter::SymbolErrorCounter, {0, 5}},
                                                      {Counter::PortRcvData, {0, 3'125'000'000'000}},
                                                      {Counter::PortXmitData, {0, 1}}});
  auto f = errors_under_load(w.deltas(), {}, 1);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::ErrorsUnderLoad);
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{"leaf01", 5}, {"spine01", 1}}));
  EXPECT_DOUBLE_EQ(f[0].details["symbol_errors_per_bit"].get<double>(), 5e-12);
  EXPECT_DOUBLE_EQ(f[0].details["bits_received"].get<double>(), 1e12);
  EXPECT_NE(f[0].message.find("SymbolErrorCounter +5 (5.0e-12 per bit received)"), std::string::npos) << f[0].message;
}

TEST(ErrorsUnderLoad, AnyLinkErrorRiseCountsButCongestionDoesNot) {
  Window w;
  w.add(port("leaf01", 1, 1), {{Counter::LinkErrorRecoveryCounter, {3, 4}}, {Counter::PortXmitWait, {0, 900}}});
  w.add(port("leaf01", 1, 2), {{Counter::PortXmitWait, {0, 900000}}, {Counter::VL15Dropped, {0, 3}}});
  auto f = errors_under_load(w.deltas(), {}, 2);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ports[0], (PortRef{"leaf01", 1}));
  // A threshold file allowing one recovery per stage clears it, as ibqueryerrors would.
  LoadErrorRules rules;
  rules.counts = counters::Thresholds::parse("LinkErrorRecoveryCounter=1\n", "t.conf");
  EXPECT_TRUE(errors_under_load(w.deltas(), rules, 2).empty());
}

class Coverage : public ::testing::Test {
 protected:
  void SetUp() override {
    ft_ = routing::fixture::make_fat_tree(2, 2, 2);
    m_.fabric = ft_.fabric;
    m_.cables = std::make_unique<routing::CableIndex>(m_.fabric, 0);
    m_.lfts = ft_.lfts;
    m_.router = std::make_unique<routing::LftRouter>(m_.fabric, *m_.cables, *m_.lfts);
    for (auto h : ft_.hosts) ports_.emplace_back(topo::PortEnd{h, 1});
  }
  // One stage: rank 0 -> rank 2 (across the spines), 1 GB.
  burn::StageResult stage() const {
    burn::StageResult r;
    r.index = 1;
    burn::FlowResult f;
    burn::DirectionResult d;
    d.from = 0;
    d.to = 2;
    d.bytes = 1'000'000'000;
    f.directions.push_back(d);
    r.flows.push_back(f);
    return r;
  }
  routing::fixture::FatTree ft_;
  routing::RouteModel m_;
  std::vector<std::optional<topo::PortEnd>> ports_;
};

TEST_F(Coverage, ExpectedBytesFollowTheRouteAndShortCablesAreNotExercised) {
  const auto expected = expected_octets(m_, ports_, stage());
  double total = 0;
  int loaded = 0;
  for (double e : expected) total += e, loaded += e > 0;
  EXPECT_EQ(loaded, 4);  // host -> leaf -> spine -> leaf -> host
  EXPECT_DOUBLE_EQ(total, 4e9);
  std::vector<double> seen = expected;
  // 1 GB over 0.01 s is 800 Gb/s: every loaded direction is judged.
  EXPECT_TRUE(coverage_findings(m_, expected, seen, 0.8, 0.01, 1).empty());
  routing::EdgeId short_edge = 0;
  while (expected[short_edge] == 0) ++short_edge;
  seen[short_edge] = 0.5e9;
  auto f = coverage_findings(m_, expected, seen, 0.8, 0.01, 1);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::NotExercised);
  EXPECT_EQ(f[0].details["seen_octets"], 0.5e9);
  // A light load (under a tenth of what the cable carries in the window) is not judged.
  EXPECT_TRUE(coverage_findings(m_, expected, seen, 0.8, 100, 1).empty());
  // Directions no stage used are one info finding.
  auto unused = unused_directions(m_, expected);
  ASSERT_EQ(unused.size(), 1u);
  EXPECT_EQ(unused[0].severity, Severity::Info);
  EXPECT_EQ(unused[0].details["directions"].size(), m_.cables->size() - 4);
}

TEST_F(Coverage, SeenBytesComeFromTheSwitchSideOfEachCable) {
  // Every port counts 1000 words each way: a switch's egress, or the switch's ingress from an HCA.
  counters::Snapshot before, after;
  for (topo::NodeId n = 0; n < m_.fabric.nodes().size(); ++n)
    for (int p = 1; p <= m_.fabric.node(n).num_ports; ++p) {
      auto s = port(m_.fabric.node(n).name, m_.fabric.node(n).guid, p);
      s.counters.set(Counter::PortXmitData, 0, 64);
      s.counters.set(Counter::PortRcvData, 0, 64);
      before.ports.push_back(s);
      s.counters.set(Counter::PortXmitData, 1000, 64);
      s.counters.set(Counter::PortRcvData, 1000, 64);
      after.ports.push_back(s);
    }
  const auto seen = seen_octets(m_, counters::compute_deltas(before, after));
  for (double s : seen) EXPECT_EQ(s, 4000);
}

TEST(ServiceActions, HostsAndCablesFromEveryKindOfEvidence) {
  std::vector<Finding> findings = {
      {FindingKind::ErrorsUnderLoad,
       Severity::Error,
       "host002 cable errors",
       {{"host002 mlx5_0", 1}, {"leaf01", 2}},
       ErrorsUnderLoadDetails{.stage = 1, .rise = {{"SymbolErrorCounter", 7}}}},
      {FindingKind::ErrorsUnderLoad,
       Severity::Error,
       "leaf01[5] link went down",
       {{"leaf01", 5}, {"spine01", 1}},
       ErrorsUnderLoadDetails{.stage = 1, .rise = {{"LinkDownedCounter", 1}}}},
      {FindingKind::Swapped, Severity::Error, "exchange plugs", {{"leaf02", 1}, {"host003 mlx5_0", 1}}, {}},
      {FindingKind::SuspectCable, Severity::Warning, "ambiguous", {{"leaf02", 6}, {"spine02", 2}}, {}},
      {FindingKind::NotExercised, Severity::Error, "routes differ", {{"host004 mlx5_0", 1}, {"leaf02", 4}}, {}},
  };
  burn::BurnSummary burn;
  burn::EndpointRecord slow;
  slow.rank = 7;
  slow.verdict = burn::Verdict::Slow;
  slow.host = "host008";
  slow.endpoint = "mlx5_0:1";
  burn.endpoints.push_back(slow);
  const std::map<std::string, std::string> hosts = {
      {"host002 mlx5_0", "host002"}, {"host003 mlx5_0", "host003"}, {"host004 mlx5_0", "host004"}};
  auto drain = hosts_to_drain(findings, hosts, burn);
  ASSERT_EQ(drain.size(), 3u);  // not host004: routes that differ are the fabric's
  EXPECT_EQ(drain[0].host, "host002");
  EXPECT_EQ(drain[1].host, "host003");
  EXPECT_EQ(drain[2].host, "host008");
  EXPECT_EQ(drain_text(drain).substr(0, 26), "host002\terrors_under_load:");

  wiring::Wiring w;
  w.cables.push_back({{"spine01", 1}, {"leaf01", 5}, std::nullopt, "C-17", 0});
  auto cables = cables_to_service(findings, &w, {report::cable_name({"host002 mlx5_0", 1}, {"leaf01", 2})});
  ASSERT_EQ(cables.size(), 3u);
  std::map<std::string, std::string> action;
  for (const auto& c : cables) action[report::cable_name(c.a, c.b)] = c.action + "|" + c.label;
  EXPECT_EQ(action["host002 mlx5_0[1] - leaf01[2]"], "replace|");  // failed in the previous run too
  EXPECT_EQ(action["leaf01[5] - spine01[1]"], "replace|C-17");     // its link went down under load
  EXPECT_EQ(action["host003 mlx5_0[1] - leaf02[1]"], "recable|");
  EXPECT_NE(cables_csv(cables).find("\"spine01\",1,\"C-17\",replace,"), std::string::npos) << cables_csv(cables);
}

TEST(ServiceActions, ACableThatWentDownIsReplacedASwitchThatDroppedOutIsNoCable) {
  const std::vector<Finding> findings = {
      {FindingKind::LinkDown, Severity::Error, "went down", {{"host002 mlx5_0", 1}, {"leaf01", 2}}, {}},
      {FindingKind::SwitchDropped, Severity::Error, "spine01 dropped out", {{"spine01", 0}}, {}},
  };
  const auto cables = cables_to_service(findings, nullptr, {});
  ASSERT_EQ(cables.size(), 1u);
  EXPECT_EQ(cables[0].action, "replace");
  const auto drain = hosts_to_drain(findings, {{"host002 mlx5_0", "host002"}}, {});
  ASSERT_EQ(drain.size(), 1u);
  EXPECT_EQ(drain[0].host, "host002");
}

TEST(HistoryChanges, NewRecoveredAndStillFailing) {
  using report::Observation;
  std::vector<Observation> before = {{"host", "h1", "burn", "slow", "error", ""},
                                     {"cable", "a[1] - b[2]", "counters", "errors_under_load", "error", ""},
                                     {"host", "h2", "burn", "", "", ""}};
  std::vector<Observation> now = {{"host", "h1", "burn", "", "", ""},
                                  {"cable", "a[1] - b[2]", "counters", "errors_under_load", "error", ""},
                                  {"host", "h2", "host", "pcie_degraded", "error", ""}};
  auto c = report::compare_runs(4, before, now);
  EXPECT_EQ(c.previous_run, 4);
  EXPECT_EQ(c.new_findings, std::vector<std::string>{"host h2: pcie_degraded"});
  EXPECT_EQ(c.recovered, std::vector<std::string>{"host h1: slow"});
  EXPECT_EQ(c.still_failing, std::vector<std::string>{"cable a[1] - b[2]: errors_under_load"});
}

}  // namespace
}  // namespace ibburn::run
