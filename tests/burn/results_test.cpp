#include <gtest/gtest.h>

#include "burn/engine.h"
#include "burn/results.h"
#include "burn/verdict.h"

using namespace ibburn::burn;

namespace {
SideReport side(std::uint32_t flow, int from, int to, bool rx, std::uint64_t bytes, std::string failure = "") {
  SideReport s;
  s.flow = flow;
  s.from = from;
  s.to = to;
  s.rx = rx;
  s.bytes = bytes;
  s.seconds = 2;
  s.samples_gbps = {1, 2};
  s.failure = std::move(failure);
  return s;
}
}  // namespace

TEST(MergeStage, RateComesFromTheReceiverAndBothDirectionsAreKept) {
  Stage st{"s", {{0, 1, true, 2}}};
  std::vector<RankReport> reports{{0, {side(0, 0, 1, false, 1000), side(0, 1, 0, true, 2'000'000'000)}},
                                  {1, {side(0, 0, 1, true, 1'000'000'000), side(0, 1, 0, false, 5)}}};
  StageResult r = merge_stage(1, st, reports, {}, false);
  ASSERT_EQ(r.flows.size(), 1u);
  ASSERT_EQ(r.flows[0].directions.size(), 2u);
  const auto& fwd = r.flows[0].directions[0];
  EXPECT_EQ(fwd.from, 0);
  EXPECT_EQ(fwd.to, 1);
  EXPECT_EQ(fwd.bytes, 1'000'000'000u);
  EXPECT_DOUBLE_EQ(fwd.gbps, 4.0);  // 8e9 bits / 2 s
  EXPECT_EQ(fwd.status, DirectionStatus::Ok);
  EXPECT_DOUBLE_EQ(r.flows[0].directions[1].gbps, 8.0);
}

TEST(MergeStage, LostRankFailsItsFlowsOnlyAndKeepsTheRest) {
  Stage st{"s", {{0, 1, false, 1}, {2, 3, false, 1}}};
  std::vector<RankReport> reports{
      {0, {side(0, 0, 1, false, 10)}}, {2, {side(1, 2, 3, false, 10)}}, {3, {side(1, 2, 3, true, 500'000'000)}}};
  LostRanks lost{{1, "rank 1 (h1 eth0): control connection closed"}};
  StageResult r = merge_stage(1, st, reports, lost, false);
  EXPECT_EQ(r.flows[0].directions[0].status, DirectionStatus::Failed);
  EXPECT_NE(r.flows[0].directions[0].reason.find("rank 1 (h1 eth0)"), std::string::npos);
  EXPECT_EQ(r.flows[0].directions[0].bytes, 10u);  // what the sender counted survives
  EXPECT_EQ(r.flows[1].directions[0].status, DirectionStatus::Ok);
  EXPECT_DOUBLE_EQ(r.flows[1].directions[0].gbps, 2.0);
}

TEST(MergeStage, RefusedRanksFlowsAreSkippedNotFailed) {
  Stage st{"s", {{0, 1, true, 1}, {2, 3, false, 1}}};
  std::vector<RankReport> reports{{2, {side(1, 2, 3, false, 10)}}, {3, {side(1, 2, 3, true, 500'000'000)}}};
  LostRanks lost{{1, "rank 1 (hostb lo): refused: host check failed: mlx5_3 at x8"}};
  StageResult r = merge_stage(1, st, reports, lost, false, {1});
  for (const auto& d : r.flows[0].directions) {
    EXPECT_EQ(d.status, DirectionStatus::Skipped);
    EXPECT_EQ(d.reason, "not run: rank 1 (hostb lo): refused: host check failed: mlx5_3 at x8");
  }
  EXPECT_EQ(r.flows[1].directions[0].status, DirectionStatus::Ok);
  // Skipped directions are not judged, and survive the round trip through results.jsonl.
  auto back = stage_result_from_json(to_json(r));
  EXPECT_EQ(back.flows[0].directions[1].status, DirectionStatus::Skipped);
  auto v = judge_stage(back, {}, {0.9, 1.0});
  EXPECT_EQ(v[0].verdict, Verdict::Unjudged);
  EXPECT_EQ(v[2].verdict, Verdict::Pass);
}

TEST(MergeStage, EitherEndsFailureFailsTheDirectionReceiverFirst) {
  Stage st{"s", {{0, 1, false, 1}}};
  std::vector<RankReport> reports{{0, {side(0, 0, 1, false, 10, "tx broke")}},
                                  {1, {side(0, 0, 1, true, 10, "rx saw garbage")}}};
  StageResult r = merge_stage(1, st, reports, {}, false);
  EXPECT_EQ(r.flows[0].directions[0].status, DirectionStatus::Failed);
  EXPECT_EQ(r.flows[0].directions[0].reason, "rx saw garbage; tx broke");
}

TEST(MergeStage, NoReportIsAFailureUnlessTheStageWasCutShort) {
  Stage st{"s", {{0, 1, false, 1}, {2, 3, false, 1}}};
  std::vector<RankReport> reports{{3, {side(1, 2, 3, true, 10)}}};
  StageResult r = merge_stage(4, st, reports, {}, false);
  EXPECT_EQ(r.flows[0].directions[0].status, DirectionStatus::Failed);
  EXPECT_NE(r.flows[0].directions[0].reason.find("no report"), std::string::npos);
  EXPECT_EQ(r.flows[1].directions[0].status, DirectionStatus::Ok);
  StageResult cut = merge_stage(4, st, reports, {}, true);
  EXPECT_EQ(cut.flows[0].directions[0].status, DirectionStatus::Interrupted);
  EXPECT_EQ(cut.flows[1].directions[0].status, DirectionStatus::Interrupted);
  EXPECT_EQ(cut.flows[1].directions[0].bytes, 10u);
  EXPECT_TRUE(cut.partial);
}

TEST(StageJson, RoundTrips) {
  Stage st{"s", {{0, 1, true, 3}}};
  std::vector<RankReport> reports{{1, {side(0, 0, 1, true, 123, "x")}}};
  StageResult r = merge_stage(2, st, reports, {}, false);
  StageResult back = stage_result_from_json(to_json(r));
  EXPECT_EQ(back.index, 2);
  EXPECT_EQ(back.flows[0].flow, st.flows[0]);
  EXPECT_EQ(back.flows[0].directions[0].bytes, 123u);
  EXPECT_EQ(back.flows[0].directions[0].status, DirectionStatus::Failed);
  EXPECT_EQ(back.flows[0].directions[0].samples_gbps, (std::vector<double>{1, 2}));
  EXPECT_EQ(to_json(back), to_json(r));
}

TEST(EndpointJson, RoundTripsIbIdentity) {
  EndpointInfo e{"node1", "mlx5_0:1", "", 0x0002c90300a1b2c3ull, 17, "InfiniBand", 400, 3};
  auto j = to_json(e);
  EXPECT_EQ(j.at("port_guid"), "0x0002c90300a1b2c3");
  EndpointInfo back = endpoint_from_json(j);
  EXPECT_EQ(back.port_guid, e.port_guid);
  EXPECT_EQ(back.lid, 17);
  EXPECT_EQ(back.gpu, 3);
  EXPECT_DOUBLE_EQ(back.rate_gbps, 400);
}

TEST(RunHeader, VerbsRunsStateTheirPath) {
  BurnOptions o;
  o.transport = "verbs";
  o.extra = {{"sl", "2"}, {"tc", "106"}};
  const nlohmann::json h = run_header(o, Plan{}, {});
  EXPECT_EQ(h.at("verbs_path").at("sl"), 2);
  EXPECT_EQ(h.at("verbs_path").at("tc"), 106);
  EXPECT_EQ(h.at("verbs_path").at("timeout"), 18);
  o.transport = "tcp";
  EXPECT_FALSE(run_header(o, Plan{}, {}).contains("verbs_path"));
}
