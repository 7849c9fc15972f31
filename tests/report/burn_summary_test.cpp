// The burn's summary.json as the burn writes it, read back by report: a field renamed on
// either side fails here rather than reading as a default.
#include <gtest/gtest.h>

#include "burn/verdict.h"
#include "common/error.h"
#include "common/file_io.h"
#include "report/history.h"
#include "report/prometheus.h"
#include "report/run_data.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;

namespace {

// Two HCAs on two hosts, one flow each way: gpu001 -> gpu002 at full rate, back at a third
// (so both ends are "suspect": each has one bad direction with a healthy peer).
burn::Summary written_by_the_burn() {
  burn::StageResult st;
  st.index = 1;
  st.name = "pairs";
  burn::FlowResult f;
  f.flow = {0, 1, true, 1};
  for (auto [from, to, rate] : {std::tuple{0, 1, 99.0}, std::tuple{1, 0, 33.0}}) {
    burn::DirectionResult d;
    d.from = from;
    d.to = to;
    d.gbps = rate;
    d.seconds = 10;
    f.directions.push_back(d);
  }
  st.flows.push_back(f);
  burn::SummaryInput in;
  in.transport = "verbs";
  in.stages_planned = 1;
  in.complete = true;
  in.stages = {st};
  in.endpoints = {{"gpu001", "mlx5_0:1", "", 0, 0, "InfiniBand", 100, -1},
                  {"gpu002", "mlx5_0:1", "", 0, 0, "InfiniBand", 100, -1}};
  in.options = {0.9, 0};
  return burn::make_summary(in);
}

}  // namespace

TEST(ReportBurnSummary, WhatTheBurnWritesReachesPrometheusAndHistory) {
  ibburn::testing::TempDir dir;
  burn::write_summary(dir.file("summary.json"), written_by_the_burn().doc);
  const report::RunData run = report::load_run_dir(dir.path());
  ASSERT_TRUE(run.burn);

  const std::string text = report::prometheus_text(run);
  for (const char* line : {
           "ibburn_burn_pass 0\n",
           "ibburn_burn_endpoint_verdict{host=\"gpu001\",endpoint=\"mlx5_0:1\",verdict=\"suspect\"} 1\n",
           // 99 and 33 Gb/s, in bytes/s
           "ibburn_burn_endpoint_min_rate_bytes_per_second{host=\"gpu001\",endpoint=\"mlx5_0:1\",direction=\"tx\"} "
           "12375000000\n",
           "ibburn_burn_endpoint_min_rate_bytes_per_second{host=\"gpu001\",endpoint=\"mlx5_0:1\",direction=\"rx\"} "
           "4125000000\n",
           "ibburn_burn_flow_rate_bytes_per_second{stage=\"1\",flow=\"0\",from=\"gpu001:mlx5_0:1\",to=\"gpu002:mlx5_0:"
           "1\",verdict=\"pass\"} 12375000000\n",
           "ibburn_burn_flow_rate_bytes_per_second{stage=\"1\",flow=\"0\",from=\"gpu002:mlx5_0:1\",to=\"gpu001:mlx5_0:"
           "1\",verdict=\"slow\"} 4125000000\n",
       })
    EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in:\n" << text;

  bool host_seen_bad = false;
  for (const auto& o : report::observations(run))
    host_seen_bad |= o.subject_kind == "host" && o.subject == "gpu002" && o.source == "burn" && o.kind == "suspect";
  EXPECT_TRUE(host_seen_bad);
}

// Every field, optional ones included, survives write -> read -> write unchanged.
TEST(ReportBurnSummary, TypedDocumentRoundTrips) {
  burn::BurnSummary s = written_by_the_burn().doc;
  s.suspects = {{"leaf1[6] -> spine1[2]", "leaf1[6]", "spine1[2]", 0.5, 3, 1, {"leaf1[5] -> spine1[1]"}}};
  s.localization_notes = {"rank 7 has no port GUID of this fabric"};
  s.endpoints[0].explained_by = {"leaf1[6] -> spine1[2]"};
  s.lost_ranks = {{3, "rank 3 (gpu004 mlx5_0:1): control connection closed", "gpu004", "mlx5_0:1"}};
  s.host_checks = {{"gpu009",
                    true,
                    {false,
                     "sysfs unreadable",
                     {{FindingKind::PcieDegraded, Severity::Error, "mlx5_3 at x8", {{"gpu009", 0}}, {{"width", 8}}}},
                     nlohmann::json::array({{{"gpu", "0000:1b:00.0"}, {"hca", "mlx5_0"}}})}}};
  // `ibburn run`'s part.
  s.findings = std::vector<Finding>{{FindingKind::ErrorsUnderLoad,
                                     Severity::Error,
                                     "leaf1[6] under load",
                                     {{"leaf1", 6}, {"spine1", 2}},
                                     {{"stage", 1}}}};
  s.job = burn::JobRecord{
      "complete",
      {{"topo", 0.5, "ok"}, {"burn", 60.0, "findings"}},
      burn::JobChanges{4, {"cable leaf1[6] - spine1[2]: errors_under_load"}, {}, {"host gpu009: refused"}},
      burn::JobAllocation{"slurm", {"gpu001", "gpu002"}, {"gpu003"}}};
  const nlohmann::json once = burn::to_json(s);
  EXPECT_EQ(burn::to_json(burn::summary_from_json(once, "summary.json")), once);
}

// A field renamed (or dropped) by the writer is an error naming the file and the field, not
// a default that reads as "pass".
TEST(ReportBurnSummary, RenamedFieldIsRefusedWithItsPlace) {
  nlohmann::json j = burn::to_json(written_by_the_burn().doc);
  j["endpoints"][1]["result"] = j["endpoints"][1]["verdict"];
  j["endpoints"][1].erase("verdict");
  try {
    burn::summary_from_json(j, "run/summary.json");
    FAIL() << "accepted a summary without endpoints[1].verdict";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "run/summary.json: endpoints[1].verdict: missing");
  }
  j = burn::to_json(written_by_the_burn().doc);
  j["flows"][0]["verdict"] = "great";
  EXPECT_THROW(burn::summary_from_json(j, "s.json"), InputError);
  j = burn::to_json(written_by_the_burn().doc);
  j["stages_run"] = "1";
  try {
    burn::summary_from_json(j, "s.json");
    FAIL() << "accepted a string stages_run";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.json: stages_run: wrong type (string)");
  }
}

// The document says which schema it follows: one from before the version was written holds the
// same fields and is read; a version this ibburn does not know is refused, naming it.
TEST(ReportBurnSummary, SchemaVersionIsReadOrRefusedByName) {
  nlohmann::json j = burn::to_json(written_by_the_burn().doc);
  EXPECT_EQ(j.at("schema_version"), burn::kSummarySchemaVersion);
  j.erase("schema_version");
  EXPECT_EQ(burn::summary_from_json(j, "old/summary.json").stages_run, written_by_the_burn().doc.stages_run);
  j["schema_version"] = 2;
  try {
    burn::summary_from_json(j, "new/summary.json");
    FAIL() << "accepted schema version 2";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "new/summary.json: schema_version: summary schema version 2, this ibburn reads version 1");
    EXPECT_EQ(e.code(), kExitInput);
  }
}

// "state" says where the run stands; it is derived from the flags and the job's outcome, so a
// document whose "state" says otherwise is refused rather than read one way or the other.
TEST(ReportBurnSummary, StateSaysWhereTheRunStands) {
  burn::BurnSummary s = written_by_the_burn().doc;
  EXPECT_EQ(burn::to_json(s)["state"], "complete");
  s.complete = false;
  EXPECT_EQ(burn::to_json(s)["state"], "running");
  s.interrupted = true;
  EXPECT_EQ(burn::to_json(s)["state"], "interrupted");
  s.interrupted = false;
  s.job = burn::JobRecord{"stopped", {}, std::nullopt, std::nullopt};
  EXPECT_EQ(burn::to_json(s)["state"], "stopped");

  nlohmann::json j = burn::to_json(written_by_the_burn().doc);
  j["state"] = "running";
  try {
    burn::summary_from_json(j, "s.json");
    FAIL() << "accepted state running on a complete summary";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "s.json: state: \"running\" disagrees with complete, interrupted and job.outcome (\"complete\")");
  }
  j.erase("state");
  EXPECT_THROW(burn::summary_from_json(j, "s.json"), InputError);
}
