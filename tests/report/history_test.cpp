#include <gtest/gtest.h>
#include <sqlite3.h>

#include "common/error.h"
#include "common/finding_details.h"
#include "report/history.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {
// A run where gpu001..gpu004 burn; `slow` hosts are slow; counters see two cables, one bad.
RunData run_with(std::vector<std::string> slow, bool bad_cable) {
  RunData run;
  run.burn.emplace();
  run.burn->complete = true;
  run.burn->pass = slow.empty();
  for (std::string h : {"gpu001", "gpu002", "gpu003", "gpu004"}) {
    burn::EndpointRecord e;
    e.host = h;
    e.endpoint = "mlx5_0:1";
    e.verdict = std::find(slow.begin(), slow.end(), h) != slow.end() ? burn::Verdict::Slow : burn::Verdict::Pass;
    run.burn->endpoints.push_back(e);
  }
  run.counters = nlohmann::json::parse(R"({"ports":[
    {"node":"leaf1","port":1,"peer":{"node":"gpu001 mlx5_0","port":1},"counters":{}},
    {"node":"leaf1","port":2,"peer":{"node":"gpu002 mlx5_0","port":1},"counters":{}}],"findings":[]})");
  if (bad_cable)
    run.counters->at("findings")
        .push_back(nlohmann::json::parse(
            R"({"kind":"errors","severity":"error","message":"SymbolErrorCounter 40",
            "ports":[{"node":"leaf1","port":2},{"node":"gpu002 mlx5_0","port":1}]})"));
  return run;
}

const SubjectScore* find(const std::vector<SubjectScore>& v, const std::string& kind, const std::string& name) {
  for (const auto& s : v)
    if (s.subject_kind == kind && s.subject == name) return &s;
  return nullptr;
}
}  // namespace

TEST(ReportHistory, ObservationsNameHostsHcasAndCables) {
  const auto obs = observations(run_with({}, true));
  auto has = [&](const std::string& kind, const std::string& subject, const std::string& finding) {
    for (const auto& o : obs)
      if (o.subject_kind == kind && o.subject == subject && o.kind == finding) return true;
    return false;
  };
  EXPECT_TRUE(has("host", "gpu003", ""));
  EXPECT_TRUE(has("hca", "gpu003 mlx5_0", ""));
  EXPECT_TRUE(has("cable", "gpu002 mlx5_0[1] - leaf1[2]", "errors"));
  EXPECT_TRUE(has("hca", "gpu002 mlx5_0", "errors"));
  EXPECT_TRUE(has("host", "gpu002", "errors"));
  EXPECT_TRUE(has("switch", "leaf1", "errors"));
  EXPECT_TRUE(has("cable", "gpu001 mlx5_0[1] - leaf1[1]", ""));
}

// A job that held gpu001 only (job.allocation): the counters' sweep read gpu002's port too,
// but the run saw nothing of gpu002, nor of the cable it named untested.
TEST(ReportHistory, APartialJobSeesNothingOutsideItsHosts) {
  RunData run = run_with({}, false);
  run.burn->endpoints.resize(1);
  run.burn->job = burn::JobRecord{"complete", {}, std::nullopt, burn::JobAllocation{"slurm", {"gpu001"}, {"gpu002"}}};
  Finding untested{FindingKind::Untested, Severity::Info, "1 cable(s) and 0 switch(es) untested", {}, {}};
  untested.details = UntestedDetails{{"gpu002 mlx5_0[1] - leaf1[2]"}, {}, 1, 1, "slurm"};
  run.burn->findings = std::vector<Finding>{untested};
  std::set<std::string> subjects;
  for (const auto& o : observations(run)) subjects.insert(o.subject_kind + " " + o.subject);
  EXPECT_TRUE(subjects.contains("host gpu001"));
  EXPECT_TRUE(subjects.contains("cable gpu001 mlx5_0[1] - leaf1[1]"));
  EXPECT_TRUE(subjects.contains("switch leaf1"));
  EXPECT_FALSE(subjects.contains("host gpu002"));
  EXPECT_FALSE(subjects.contains("hca gpu002 mlx5_0"));
  EXPECT_FALSE(subjects.contains("cable gpu002 mlx5_0[1] - leaf1[2]"));
}

TEST(ReportHistory, BurnSuspectsAndPreflightAreObservations) {
  RunData run = run_with({}, false);
  run.burn->suspects = {{"leaf1[2] -> gpu002 mlx5_0[1]", "leaf1[2]", "gpu002 mlx5_0[1]", 1.0, 1, 0, {}},
                        {"leaf1[1] -> gpu001 mlx5_0[1]", "leaf1[1]", "gpu001 mlx5_0[1]", 0.25, 1, 0, {}}};
  run.burn->host_checks = {{"gpu004", true, {false, {}, {{FindingKind::PcieDegraded, Severity::Error, "x8", {}, {}}}}}};
  int suspect = 0, preflight = 0;
  for (const auto& o : observations(run)) {
    if (o.kind == "suspect_cable") {
      ++suspect;
      EXPECT_EQ(o.subject, "gpu002 mlx5_0[1] - leaf1[2]");  // the confident one only
    }
    preflight += o.subject_kind == "host" && o.subject == "gpu004" && o.kind == "pcie_degraded";
  }
  EXPECT_EQ(suspect, 1);
  EXPECT_EQ(preflight, 1);
}

TEST(ReportHistory, RanksRepeatOffendersAndListsGolden) {
  ibburn::testing::TempDir tmp;
  const std::string db = tmp.file("history.db");
  {
    History h(db);
    h.record("run1", 1000, run_with({"gpu003"}, false));
    h.record("run2", 2000, run_with({"gpu003", "gpu004"}, true));
    h.record("run3", 3000, run_with({"gpu003"}, true));
  }
  History h(db);  // reopened: the runs are on disk
  auto r = h.rank(10);
  EXPECT_EQ(r.runs, 3);
  ASSERT_FALSE(r.failing.empty());
  // gpu003 failed all three runs; gpu002 (bad cable) two; gpu004 one.
  // gpu003 and its HCA tie at the top.
  EXPECT_EQ(host_of(r.failing.front().subject), "gpu003");
  EXPECT_EQ(r.failing.front().failed_runs, 3);
  EXPECT_EQ(find(r.failing, "host", "gpu003")->failed_runs, 3);
  EXPECT_EQ(find(r.failing, "hca", "gpu003 mlx5_0")->failed_runs, 3);
  ASSERT_NE(find(r.failing, "host", "gpu002"), nullptr);
  EXPECT_EQ(find(r.failing, "host", "gpu002")->failed_runs, 2);
  EXPECT_EQ(find(r.failing, "host", "gpu004")->failed_runs, 1);
  EXPECT_EQ(find(r.failing, "cable", "gpu002 mlx5_0[1] - leaf1[2]")->failed_runs, 2);
  EXPECT_EQ(find(r.failing, "cable", "gpu002 mlx5_0[1] - leaf1[2]")->last_kind, "errors");
  EXPECT_NE(find(r.golden, "host", "gpu001"), nullptr);
  EXPECT_NE(find(r.golden, "cable", "gpu001 mlx5_0[1] - leaf1[1]"), nullptr);
  EXPECT_EQ(find(r.golden, "host", "gpu002"), nullptr);

  // Over the last run only, gpu004 is golden again; gpu003 and the cable still fail.
  r = h.rank(1);
  EXPECT_EQ(r.runs, 1);
  EXPECT_NE(find(r.golden, "host", "gpu004"), nullptr);
  EXPECT_EQ(find(r.failing, "host", "gpu003")->failed_runs, 1);
  EXPECT_NE(find(r.failing, "cable", "gpu002 mlx5_0[1] - leaf1[2]"), nullptr);

  const std::string text = format_history(h.rank(10), 0);
  EXPECT_NE(text.find("history: last 3 run(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("golden: 1 host, 1 hca, 1 cable (--list names them)\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("gpu001"), std::string::npos) << text;
  const std::string listed = format_history(h.rank(10), 0, true);
  EXPECT_NE(listed.find("golden hosts (1):\n  gpu001\n"), std::string::npos) << listed;
  EXPECT_NE(listed.find("golden cables (1):\n  gpu001 mlx5_0[1] - leaf1[1]\n"), std::string::npos) << listed;
  EXPECT_EQ(listed.find("--list names them"), std::string::npos) << listed;
}

TEST(ReportHistory, UnwritableDatabaseIsAnEnvironmentError) {
  EXPECT_THROW(History{"/nonexistent-dir/x/history.db"}, EnvironmentError);
}

// A killed run saw nothing through: what it found counts, what it saw fine makes nothing
// golden, and the history says how many runs did not finish.
TEST(ReportHistory, IncompleteRunMakesNothingGolden) {
  ibburn::testing::TempDir tmp;
  History h(tmp.file("history.db"));
  RunData killed = run_with({"gpu003"}, false);
  killed.burn->complete = false;  // its summary says running
  h.record("killed", 1000, killed);
  HistoryReport r = h.rank(10);
  EXPECT_EQ(r.runs, 1);
  EXPECT_EQ(r.incomplete, 1);
  EXPECT_TRUE(r.golden.empty());
  ASSERT_NE(find(r.failing, "host", "gpu003"), nullptr);
  EXPECT_EQ(find(r.failing, "host", "gpu003")->failed_runs, 1);
  EXPECT_NE(format_history(r, 0).find("history: last 1 run(s) (1 incomplete), "), std::string::npos);

  h.record("finished", 2000, run_with({}, false));
  r = h.rank(10);
  EXPECT_EQ(r.incomplete, 1);
  EXPECT_NE(find(r.golden, "host", "gpu001"), nullptr);  // seen fine by the finished run
  EXPECT_EQ(find(r.golden, "host", "gpu003"), nullptr);
}

// Databases written before runs had an outcome gain the column and read as before.
TEST(ReportHistory, DatabaseWithoutOutcomesIsUpgraded) {
  ibburn::testing::TempDir tmp;
  const std::string db = tmp.file("old.db");
  sqlite3* old = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &old), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(old,
                         "CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT, time INTEGER);"
                         "INSERT INTO runs(label, time) VALUES('old', 1)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(old);
  History h(db);
  h.record("new", 2000, run_with({}, false));
  const HistoryReport r = h.rank(10);
  EXPECT_EQ(r.runs, 2);
  EXPECT_EQ(r.incomplete, 0);
}
