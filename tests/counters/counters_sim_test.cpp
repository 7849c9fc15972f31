// ibburn counters against ibsim + opensm: injected counters, parity with ibqueryerrors,
// clearing, unreachable ports, and a link cycled during watch.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "counters/thresholds.h"
#include "ibqueryerrors_output.h"
#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

using namespace ibburn;
using ibburn::testing::SimFabric;
using PortSet = std::set<std::pair<std::string, int>>;

namespace {

// Two switches joined by two cables, four single-cabled HCAs.
constexpr const char* kNet = R"(Switch	8 "sw1"
[1]	"h1"[1]
[2]	"h2"[1]
[3]	"sw2"[3]
[5]	"sw2"[5]

Switch	8 "sw2"
[1]	"h3"[1]
[2]	"h4"[1]
[3]	"sw1"[3]
[5]	"sw1"[5]

Hca	1 "h1"
[1]	"sw1"[1]

Hca	1 "h2"
[1]	"sw1"[2]

Hca	1 "h3"
[1]	"sw2"[1]

Hca	1 "h4"
[1]	"sw2"[2]
)";

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";

class CountersSim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
    write_file_atomic(dir_ + "/net", kNet);
    sim_ = std::make_unique<SimFabric>(dir_ + "/net");
    // The fabric with the LIDs opensm assigned, as ibburn --fabric reads it.
    auto disc = sim_->run({"ibnetdiscover"});
    ASSERT_EQ(disc.exit_code, 0) << disc.err;
    fabric_ = dir_ + "/fabric.txt";
    write_file_atomic(fabric_, disc.out);
  }

  ibburn::testing::CommandResult ibburn(std::vector<std::string> args,
                                        std::chrono::seconds timeout = std::chrono::seconds(60)) {
    args.insert(args.begin(), kIbburn);
    return sim_->run(args, timeout);
  }

  // Ports named first in each `kind` finding of an ibburn --json file.
  static PortSet flagged(const std::string& json_path, const std::string& kind) {
    auto j = nlohmann::json::parse(read_file(json_path));
    PortSet out;
    for (const auto& f : j.at("findings"))
      if (f.at("kind") == kind)
        out.insert({f["ports"][0]["node"].get<std::string>(), f["ports"][0]["port"].get<int>()});
    return out;
  }

  std::string thresholds(const std::string& text) {
    std::string path = dir_ + "/thresholds";
    write_file_atomic(path, text);
    return path;
  }

  void perf_set(const std::string& command) { sim_->console(command); }

  // Ports named in the `kind` section of ibburn's printed summary ("  [error] sw1[3]: ...").
  static PortSet summary_ports(const std::string& out, const std::string& kind) {
    std::istringstream in(out);
    std::string line;
    bool in_kind = false;
    PortSet ports;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != ' ') in_kind = line == kind + ":";
      if (!in_kind || line.rfind("  [", 0) != 0) continue;
      size_t name = line.find("] ") + 2, open = line.find('[', name), close = line.find("]:", open);
      ports.insert({line.substr(name, open - name), std::stoi(line.substr(open + 1, close - open - 1))});
    }
    return ports;
  }

  ibburn::testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
  std::string fabric_;
  std::unique_ptr<SimFabric> sim_;
};

}  // namespace

TEST_F(CountersSim, InjectedCountersFlagExactlyThosePortsAsIbqueryerrorsDoes) {
  perf_set(R"(PerformanceSet "sw1"[3] PortCounters.SymbolErrorCounter=50)");
  perf_set(R"(PerformanceSet "h2"[1] PortCounters.LinkDownedCounter=20)");
  perf_set(R"(PerformanceSet "sw2"[5] PortCounters.PortRcvErrors=11)");
  perf_set(R"(PerformanceSet "h4"[1] PortCounters.PortXmitDiscards=100)");  // == limit
  std::string th = thresholds(counters::Thresholds::defaults().to_text());
  std::string json = dir_ + "/out.json";
  auto r = ibburn({"counters", "--fabric", fabric_, "--thresholds", th, "--json", json});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  PortSet ours = flagged(json, "errors");
  EXPECT_EQ(ours, (PortSet{{"sw1", 3}, {"h2", 1}, {"sw2", 5}}));

  auto q = sim_->run({"ibqueryerrors", "--threshold-file", th});
  auto theirs = counters::testing::parse_ibqueryerrors(q.out);
  EXPECT_EQ(theirs.flagged(), ours) << q.out;
  // Every port of the fabric was judged; --json holds the findings, not the ports' counters
  // (issue #24: they are --save's snapshot).
  auto j = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(j["port_count"], 2u * 8 + 4);
  EXPECT_FALSE(j.contains("ports"));
  EXPECT_NE(r.err.find("error sweep of 20 ports"), std::string::npos) << r.err;
}

// `--fabric live` discovers the fabric, the same as no --fabric (it used to open a file
// named "live"), and finds the same ports as with the discovered file.
TEST_F(CountersSim, FabricLiveDiscoversAndFlagsTheSamePorts) {
  perf_set(R"(PerformanceSet "sw1"[3] PortCounters.SymbolErrorCounter=50)");
  perf_set(R"(PerformanceSet "h2"[1] PortCounters.LinkDownedCounter=20)");
  std::string live = dir_ + "/live.json", file = dir_ + "/file.json";
  auto r = ibburn({"counters", "--fabric", "live", "--json", live});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(flagged(live, "errors"), (PortSet{{"sw1", 3}, {"h2", 1}}));
  r = ibburn({"counters", "--fabric", fabric_, "--json", file});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(flagged(file, "errors"), flagged(live, "errors"));
}

TEST_F(CountersSim, SameVerdictsAsIbqueryerrorsWithAnotherThresholdFile) {
  perf_set(R"(PerformanceSet "sw1"[1] PortCounters.SymbolErrorCounter=3)");
  perf_set(R"(PerformanceSet "sw2"[2] PortCounters.SymbolErrorCounter=4)");
  perf_set(R"(PerformanceSet "h3"[1] PortCounters.VL15Dropped=1)");
  perf_set(R"(PerformanceSet "sw1"[5] PortCounters.LinkErrorRecoveryCounter=2)");
  // Unnamed counters are 0 for both tools: any VL15Dropped or LinkErrorRecovery counts.
  std::string th = thresholds("SymbolErrorCounter=3\n");
  std::string json = dir_ + "/out.json";
  auto r = ibburn({"counters", "--fabric", fabric_, "--thresholds", th, "--json", json});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  PortSet ours = flagged(json, "errors");
  EXPECT_EQ(ours, (PortSet{{"sw2", 2}, {"h3", 1}, {"sw1", 5}}));
  auto q = sim_->run({"ibqueryerrors", "--threshold-file", th});
  EXPECT_EQ(counters::testing::parse_ibqueryerrors(q.out).flagged(), ours) << q.out;
}

TEST_F(CountersSim, SaturatedThenClearedThenBaselineDeltas) {
  perf_set(R"(PerformanceSet "sw2"[1] PortCounters.SymbolErrorCounter=65535)");
  std::string json = dir_ + "/out.json", snap = dir_ + "/snap.json";
  auto r = ibburn({"counters", "--fabric", fabric_, "--json", json, "--clear"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(flagged(json, "saturated"), (PortSet{{"sw2", 1}}));
  EXPECT_EQ(flagged(json, "errors"), (PortSet{{"sw2", 1}}));

  // Cleared: the next sweep is clean; save it as the baseline.
  r = ibburn({"counters", "--fabric", fabric_, "--json", json, "--save", snap});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(flagged(json, "errors").empty());

  // Errors that rise after the baseline are judged on the rise.
  perf_set(R"(PerformanceSet "h1"[1] PortCounters.PortRcvErrors=12)");
  r = ibburn({"counters", "--fabric", fabric_, "--json", json, "--baseline", snap});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(flagged(json, "errors"), (PortSet{{"h1", 1}}));
  auto j = nlohmann::json::parse(read_file(json));
  for (const auto& f : j["findings"])
    if (f["kind"] == "errors") {
      EXPECT_EQ(f["details"]["counters"]["PortRcvErrors"]["rise"], 12);
    }
  EXPECT_EQ(nlohmann::json::parse(read_file(snap))["schema_version"], 2);

  // A findings file is no baseline: refused before the fabric is touched, naming the file.
  r = ibburn({"counters", "--fabric", fabric_, "--baseline", json});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(json + ": holds findings only"), std::string::npos) << r.err;
}

TEST_F(CountersSim, ErrorSweepFlagsWhatTheFullSweepAndIbqueryerrorsFlag) {
  std::string th = thresholds(
      "SymbolErrorCounter=10\nLinkDownedCounter=10\nPortRcvErrors=10\n"
      "PortXmitWait=4294967295\n");
  // The summary of the error sweep (default) is the full sweep's, word for word, and its
  // `errors` ports are those ibqueryerrors flags.
  auto compare = [&](const PortSet& errors, const PortSet& saturated) {
    auto fast = ibburn({"counters", "--fabric", fabric_, "--thresholds", th});
    auto full = ibburn({"counters", "--fabric", fabric_, "--thresholds", th, "--full-sweep"});
    ASSERT_EQ(fast.exit_code, 1) << fast.err;
    ASSERT_EQ(full.exit_code, 1) << full.err;
    ASSERT_NE(fast.err.find("error sweep of"), std::string::npos) << fast.err;
    EXPECT_EQ(fast.out, full.out);
    EXPECT_EQ(summary_ports(fast.out, "errors"), errors) << fast.out;
    EXPECT_EQ(summary_ports(fast.out, "saturated"), saturated) << fast.out;
    auto q = sim_->run({"ibqueryerrors", "--threshold-file", th});
    EXPECT_EQ(counters::testing::parse_ibqueryerrors(q.out).flagged(), errors) << q.out;
  };
  perf_set(R"(PerformanceSet "sw1"[3] PortCounters.SymbolErrorCounter=50)");
  perf_set(R"(PerformanceSet "sw2"[1] PortCounters.SymbolErrorCounter=6)");  // totals 12 > 10,
  perf_set(R"(PerformanceSet "sw2"[2] PortCounters.SymbolErrorCounter=6)");  // no port > 10
  perf_set(R"(PerformanceSet "h2"[1] PortCounters.LinkDownedCounter=20)");
  perf_set(R"(PerformanceSet "h4"[1] PortCounters.PortRcvErrors=10)");  // == limit
  compare({{"sw1", 3}, {"h2", 1}}, {});
  // Only a pinned counter on sw2, under a threshold nothing exceeds: still drilled into.
  perf_set(R"(PerformanceSet "sw2"[1] PortCounters.SymbolErrorCounter=0)");
  perf_set(R"(PerformanceSet "sw2"[2] PortCounters.SymbolErrorCounter=0)");
  perf_set(R"(PerformanceSet "sw2"[5] PortCounters.PortXmitWait=4294967295)");
  compare({{"sw1", 3}, {"h2", 1}}, {{"sw2", 5}});
  // sw1 clean again: its ports are judged by its totals alone, with fewer MADs.
  perf_set(R"(PerformanceSet "sw1"[3] PortCounters.SymbolErrorCounter=0)");
  compare({{"h2", 1}}, {{"sw2", 5}});
  auto mads = [](const std::string& err) {
    size_t end = err.find(" MADs"), start = err.rfind('(', end);
    return std::stoul(err.substr(start + 1, end - start - 1));
  };
  auto fast = ibburn({"counters", "--fabric", fabric_, "--thresholds", th});
  auto full = ibburn({"counters", "--fabric", fabric_, "--thresholds", th, "--full-sweep"});
  EXPECT_LT(mads(fast.err), mads(full.err)) << fast.err << full.err;
}

TEST_F(CountersSim, UnreachablePortsAreReportedAndTheSweepGoesOn) {
  perf_set(R"(PerformanceSet "sw1"[2] PortCounters.SymbolErrorCounter=99)");
  sim_->console(R"(Unlink "h3"[1])");  // h3 keeps its LID in the fabric file
  std::string json = dir_ + "/out.json";
  auto r = ibburn({"counters", "--fabric", fabric_, "--json", json, "--timeout", "50ms", "--retries", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(flagged(json, "unreachable"), (PortSet{{"h3", 1}}));
  EXPECT_EQ(flagged(json, "errors"), (PortSet{{"sw1", 2}}));
  auto fast = ibburn({"counters", "--fabric", fabric_, "--timeout", "50ms", "--retries", "1"});
  EXPECT_EQ(fast.exit_code, 1) << fast.err;
  EXPECT_EQ(summary_ports(fast.out, "unreachable"), (PortSet{{"h3", 1}})) << fast.out;
  EXPECT_EQ(summary_ports(fast.out, "errors"), (PortSet{{"sw1", 2}})) << fast.out;
}

TEST_F(CountersSim, BadThresholdFileIsAnInputError) {
  auto r =
      ibburn({"counters", "--fabric", fabric_, "--thresholds", thresholds("SymbolErrorCounter=10\nNoSuchCounter=1\n")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("thresholds:2: unknown counter 'NoSuchCounter'"), std::string::npos) << r.err;
}

TEST_F(CountersSim, WatchFlagsTheCycledLinkAndNoOther) {
  std::string json = dir_ + "/watch.json", events = dir_ + "/events.jsonl";
  ibburn::testing::CommandResult watch;
  std::thread t([&] {
    watch = ibburn({"counters", "watch", "--fabric", fabric_, "--interval", "150ms", "--duration", "12s", "--timeout",
                    "50ms", "--retries", "1", "--json", json, "--events", events},
                   std::chrono::seconds(60));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  for (int i = 0; i < 2; ++i) {  // two bounces; the watch outlasts them with margin
    sim_->console(R"(Unlink "sw1"[1])");
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    sim_->console(R"(ReLink "sw1"[1])");
    sim_->resweep();
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
  }
  t.join();
  ASSERT_EQ(watch.exit_code, 1) << watch.out << watch.err;
  auto j = nlohmann::json::parse(read_file(json));
  std::vector<nlohmann::json> flaps;
  for (const auto& f : j["findings"])
    if (f["kind"] == "flapping") flaps.push_back(f);
  ASSERT_EQ(flaps.size(), 1u) << j["findings"].dump(1);
  PortSet ends;
  for (const auto& p : flaps[0]["ports"]) ends.insert({p["node"].get<std::string>(), p["port"].get<int>()});
  EXPECT_EQ(ends, (PortSet{{"sw1", 1}, {"h1", 1}}));
  // Nothing else went wrong on the fabric.
  for (const auto& f : j["findings"]) EXPECT_EQ(f["kind"], "flapping") << f.dump();
  // The events stream saw the state changes of that port.
  std::ifstream in(events);
  std::string line;
  int downs = 0;
  while (std::getline(in, line)) {
    auto e = nlohmann::json::parse(line);
    if (e["event"] == "state" && e["ports"][0]["node"] == "sw1" && e["ports"][0]["port"] == 1 &&
        e["details"]["to"] == "Down")
      ++downs;
  }
  EXPECT_GE(downs, 2);
}

// `ibburn counters` on its own tells one cause once: most host cables over a threshold the same
// way (a fabric-wide setting, a bad batch of cables) are one `systemic` finding for their tier,
// the ports in its details, not nine findings.
TEST(CountersSimOneCause, MostPortsOfATierOverAThresholdAreOneFinding) {
  if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
  ibburn::testing::TempDir tmp;
  // Two switches joined by two cables, five HCAs on each: 12 cables, 10 of them host cables.
  std::string net;
  for (int s = 1; s <= 2; ++s) {
    net += "Switch\t12 \"sw" + std::to_string(s) + "\"\n";
    for (int h = 1; h <= 5; ++h)
      net += "[" + std::to_string(h) + "]\t\"h" + std::to_string(5 * (s - 1) + h) + "\"[1]\n";
    for (int p : {11, 12})
      net += "[" + std::to_string(p) + "]\t\"sw" + std::to_string(3 - s) + "\"[" + std::to_string(p) + "]\n";
    net += "\n";
  }
  for (int h = 1; h <= 10; ++h)
    net += "Hca\t1 \"h" + std::to_string(h) + "\"\n[1]\t\"sw" + std::to_string(h <= 5 ? 1 : 2) + "\"[" +
           std::to_string((h - 1) % 5 + 1) + "]\n\n";
  write_file_atomic(tmp.path() + "/net", net);
  SimFabric sim(tmp.path() + "/net");
  for (int h = 1; h <= 9; ++h)
    sim.console("PerformanceSet \"h" + std::to_string(h) + "\"[1] PortCounters.SymbolErrorCounter=50");
  const std::string json = tmp.path() + "/out.json";
  auto r = sim.run({kIbburn, "counters", "--json", json}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = nlohmann::json::parse(read_file(json));
  ASSERT_EQ(j["findings"].size(), 1u) << j["findings"].dump(1);
  const auto& f = j["findings"][0];
  EXPECT_EQ(f["kind"], "systemic");
  EXPECT_NE(f["message"].get<std::string>().find("9 of"), std::string::npos) << f.dump(1);
  EXPECT_NE(f["message"].get<std::string>().find("SymbolErrorCounter over the threshold"), std::string::npos)
      << f.dump(1);
  EXPECT_NE(r.out.find("systemic"), std::string::npos) << r.out;
}
