// The burn's summary.json as the burn writes it, read back by report: a field renamed on
// either side fails here rather than reading as a default.
#include <gtest/gtest.h>

#include "burn/verdict.h"
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
  write_file_atomic(dir.file("summary.json"), written_by_the_burn().json.dump(2));
  const report::RunData run = report::load_run_dir(dir.path());
  ASSERT_TRUE(run.burn);

  const std::string text = report::prometheus_text(run);
  for (const char* line : {
           "ibburn_burn_pass 0\n",
           "ibburn_burn_endpoint_verdict{host=\"gpu001\",endpoint=\"mlx5_0:1\",verdict=\"suspect\"} 1\n",
           "ibburn_burn_endpoint_min_gbps{host=\"gpu001\",endpoint=\"mlx5_0:1\",direction=\"tx\"} 99\n",
           "ibburn_burn_endpoint_min_gbps{host=\"gpu001\",endpoint=\"mlx5_0:1\",direction=\"rx\"} 33\n",
           "ibburn_burn_flow_gbps{stage=\"1\",flow=\"0\",from=\"gpu001:mlx5_0:1\",to=\"gpu002:mlx5_0:1\",verdict="
           "\"pass\"} 99\n",
           "ibburn_burn_flow_gbps{stage=\"1\",flow=\"0\",from=\"gpu002:mlx5_0:1\",to=\"gpu001:mlx5_0:1\",verdict="
           "\"slow\"} 33\n",
       })
    EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in:\n" << text;

  bool host_seen_bad = false;
  for (const auto& o : report::observations(run))
    host_seen_bad |= o.subject_kind == "host" && o.subject == "gpu002" && o.source == "burn" && o.kind == "suspect";
  EXPECT_TRUE(host_seen_bad);
}
