// The run directory's one verdict (report/run_verdict.h): a run that did not finish is
// INCOMPLETE whatever it measured, and the findings counted are the job's own list.
#include "report/run_verdict.h"

#include <gtest/gtest.h>

#include "common/error.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {
RunData job_run(bool complete, bool interrupted) {
  RunData run;
  run.began = true;
  run.burn.emplace();
  run.burn->complete = complete;
  run.burn->interrupted = interrupted;
  run.burn->stages_planned = 2;
  run.burn->stages_run = 1;
  run.burn->pass = false;
  run.burn->findings = std::vector<Finding>{{FindingKind::SlowFlow, Severity::Error, "stage 1 flow 0", {}, {}},
                                            {FindingKind::ErrorsUnderLoad, Severity::Error, "leaf1[2]", {}, {}}};
  run.burn->job = burn::JobRecord{"running", {}, std::nullopt, std::nullopt};
  // What the job's list already holds, in the files the report also reads.
  run.topo = std::vector<Finding>{};
  run.counters = nlohmann::json{
      {"ports", nlohmann::json::array()},
      {"findings", {to_json(Finding{FindingKind::ErrorsUnderLoad, Severity::Error, "leaf1[2]", {}, {}})}}};
  return run;
}
}  // namespace

TEST(ReportRunVerdict, FinishedJobCountsItsOneFindingsList) {
  const RunVerdict v = run_verdict(job_run(true, false));
  EXPECT_EQ(v.outcome, RunOutcome::Fail);
  EXPECT_EQ(v.findings.size(), 2u);  // not 3: counters.json's finding is in the job's list
  EXPECT_TRUE(v.why_incomplete.empty());
}

TEST(ReportRunVerdict, RunningOrInterruptedSummaryIsIncomplete) {
  RunData run = job_run(false, false);
  RunVerdict v = run_verdict(run);
  EXPECT_EQ(v.outcome, RunOutcome::Incomplete);
  EXPECT_EQ(v.why_incomplete, "summary.json says running: 1 of 2 planned stage(s) measured");
  EXPECT_EQ(v.findings.size(), 2u);
  // Nothing measured yet and no finding: still not a pass.
  run.burn->findings->clear();
  run.burn->pass = true;
  run.burn->stages_run = 0;
  EXPECT_EQ(run_verdict(run).outcome, RunOutcome::Incomplete);
  v = run_verdict(job_run(false, true));
  EXPECT_EQ(v.outcome, RunOutcome::Incomplete);
  EXPECT_EQ(v.why_incomplete, "summary.json says interrupted: 1 of 2 planned stage(s) measured");
}

TEST(ReportRunVerdict, RunFilesWithoutASummaryAreIncomplete) {
  RunData run;
  run.began = true;
  run.topo = std::vector<Finding>{};
  const RunVerdict v = run_verdict(run);
  EXPECT_EQ(v.outcome, RunOutcome::Incomplete);
  EXPECT_NE(v.why_incomplete.find("no summary.json"), std::string::npos);
  // Check commands' files alone (no burn, no job began) are judged on their findings.
  run.began = false;
  EXPECT_EQ(run_verdict(run).outcome, RunOutcome::Pass);
  run.topo->push_back({FindingKind::Missing, Severity::Error, "m", {}, {}});
  EXPECT_EQ(run_verdict(run).outcome, RunOutcome::Fail);
}

TEST(ReportRunVerdict, StoppedJobIsJudgedOnItsFindings) {
  RunData run = job_run(false, false);
  run.burn->job->outcome = "stopped";
  EXPECT_EQ(run_verdict(run).outcome, RunOutcome::Fail);
}

// A rank lost on the way leaves its flows and its peers' unmeasured: the run is incomplete
// even though every stage ran to its end, and summary.json's verdict says so.
TEST(ReportRunVerdict, ALostRankMakesAFinishedRunIncomplete) {
  RunData run = job_run(true, false);
  run.burn->lost_ranks.push_back({3, "stopped answering", std::string("host004"), std::string("mlx5_0:1")});
  const RunVerdict v = run_verdict(run);
  EXPECT_EQ(v.outcome, RunOutcome::Incomplete);
  EXPECT_EQ(v.why_incomplete, "1 rank(s) lost during the burn: their flows were not measured to the end");
  EXPECT_EQ(burn::to_json(*run.burn)["verdict"], "incomplete");
}

// summary.json's verdict is one of three words, written as run_outcome says and read back so.
TEST(ReportRunVerdict, SummaryVerdictIsPassFailOrIncomplete) {
  burn::BurnSummary s;
  s.transport = "sim";
  s.complete = true;
  EXPECT_EQ(burn::to_json(s)["verdict"], "pass");
  s.pass = false;
  EXPECT_EQ(burn::to_json(s)["verdict"], "fail");
  s.pass = true;
  s.complete = false;
  s.interrupted = true;  // no finding, but cut short: never a pass
  nlohmann::json j = burn::to_json(s);
  EXPECT_EQ(j["verdict"], "incomplete");
  const burn::BurnSummary back = burn::summary_from_json(j, "s.json");
  EXPECT_EQ(burn::run_outcome(back), RunOutcome::Incomplete);
  EXPECT_FALSE(back.pass);
  j["verdict"] = "unknown";
  try {
    burn::summary_from_json(j, "s.json");
    FAIL() << "accepted an unknown verdict";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.json: verdict: expected \"pass\", \"fail\" or \"incomplete\", got \"unknown\"");
  }
}
