#include <gtest/gtest.h>

#include <map>

#include "burn/verdict.h"

using namespace ibburn;
using namespace ibburn::burn;

namespace {

DirectionResult dir(int from, int to, double gbps, DirectionStatus st = DirectionStatus::Ok) {
  DirectionResult d;
  d.from = from;
  d.to = to;
  d.gbps = gbps;
  d.seconds = 1;
  d.status = st;
  if (st == DirectionStatus::Failed) d.reason = "peer closed";
  return d;
}

StageResult stage(int index, std::vector<std::vector<DirectionResult>> flows) {
  StageResult s;
  s.index = index;
  std::uint32_t id = 0;
  for (auto& dirs : flows) {
    FlowResult f;
    f.id = id++;
    f.flow = {dirs[0].from, dirs[0].to, dirs.size() > 1, 1};
    f.directions = std::move(dirs);
    s.flows.push_back(std::move(f));
  }
  return s;
}

std::vector<EndpointInfo> eps(int n, double rate) {
  std::vector<EndpointInfo> v(n);
  for (int i = 0; i < n; ++i) {
    v[i].host = "h" + std::to_string(i);
    v[i].endpoint = "eth0";
    v[i].rate_gbps = rate;
  }
  return v;
}

// Two hosts, one NIC down: both ranks' every direction failed, but only one port's own
// counters say its link went down. That host is the finding; its peer passes.
TEST(Verdict, APortThatWentDownTakesTheBlameForItsPeersFailedDirections) {
  StageResult st = stage(1, {{dir(0, 1, 0, DirectionStatus::Failed), dir(1, 0, 0, DirectionStatus::Failed)}});
  SummaryInput in;
  in.stages = {st};
  in.endpoints = eps(2, 10);
  in.options = {0.9, 0};
  Summary before = make_summary(in);  // no counters: the pair cannot tell which end
  EXPECT_EQ(before.doc.endpoints[0].verdict, Verdict::Failed);
  EXPECT_EQ(before.doc.endpoints[1].verdict, Verdict::Failed);
  in.port_counters = {{0, {{"link_downed", 0}}}, {1, {{"link_downed", 1}}}};
  Summary s = make_summary(in);
  EXPECT_EQ(s.doc.endpoints[0].verdict, Verdict::Pass);
  EXPECT_EQ(s.doc.endpoints[1].verdict, Verdict::Failed);
  EXPECT_FALSE(s.doc.pass);
}

// A finding's rank port and back: what names it later (localization/endpoint_names.h) reads.
TEST(Verdict, ARankPortGivesItsRankBackAndNoOtherPortDoes) {
  std::vector<EndpointInfo> eps(2);
  eps[1].host = "vm02", eps[1].endpoint = "rxe0:1";
  EXPECT_EQ(endpoint_ref(eps, 1), (PortRef{"rank 1 vm02:rxe0:1", 0}));
  EXPECT_EQ(rank_of_ref(endpoint_ref(eps, 1)), 1);
  EXPECT_EQ(rank_of_ref(endpoint_ref(eps, 5)), 5);
  EXPECT_FALSE(rank_of_ref({"rank 1 vm02:rxe0:1", 1}));
  EXPECT_FALSE(rank_of_ref({"ranking01", 0}));
  EXPECT_FALSE(rank_of_ref({"rank 1x", 0}));
  EXPECT_FALSE(rank_of_ref({"vm02 rxe0", 1}));
}

}  // namespace

TEST(Verdict, ThresholdAgainstPortRate) {
  auto v = judge_stage(stage(1, {{dir(0, 1, 370)}, {dir(2, 3, 350)}}), eps(4, 400), {0.9, 0});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].verdict, Verdict::Pass);
  EXPECT_DOUBLE_EQ(v[0].expected_gbps, 400);
  EXPECT_EQ(v[1].verdict, Verdict::Slow);
  EXPECT_NE(v[1].reason.find("350.00 Gb/s < 90% of 400.00"), std::string::npos) << v[1].reason;
}

TEST(Verdict, ExpectGbpsOverridesAndUnknownRateIsUnjudged) {
  auto v = judge_stage(stage(1, {{dir(0, 1, 9)}}), eps(2, 0), {0.9, 10});
  EXPECT_EQ(v[0].verdict, Verdict::Pass);
  v = judge_stage(stage(1, {{dir(0, 1, 9)}}), eps(2, 0), {0.9, 0});
  EXPECT_EQ(v[0].verdict, Verdict::Unjudged);
}

TEST(Verdict, ExpectedRateIsSharedWhenAnEndpointSendsSeveralFlows) {
  // Rank 0 sends to 1 and 2 at once: each direction may expect half of its port.
  auto v = judge_stage(stage(1, {{dir(0, 1, 46)}, {dir(0, 2, 40)}}), eps(3, 100), {0.9, 0});
  EXPECT_DOUBLE_EQ(v[0].expected_gbps, 50);
  EXPECT_EQ(v[0].verdict, Verdict::Pass);
  EXPECT_EQ(v[1].verdict, Verdict::Slow);
}

TEST(Verdict, FailedAndInterruptedAreNotJudgedByRate) {
  auto v =
      judge_stage(stage(1, {{dir(0, 1, 999, DirectionStatus::Failed)}, {dir(2, 3, 1, DirectionStatus::Interrupted)}}),
                  eps(4, 400), {0.9, 0});
  EXPECT_EQ(v[0].verdict, Verdict::Failed);
  EXPECT_EQ(v[0].reason, "peer closed");
  EXPECT_EQ(v[1].verdict, Verdict::Interrupted);
}

TEST(Verdict, OneSlowHostStandsOutInRoundRobin) {
  // 4 ranks, one-to-one rounds; everything touching rank 1 is slow.
  std::vector<StageResult> stages{stage(1, {{dir(0, 1, 1), dir(1, 0, 1)}, {dir(2, 3, 10), dir(3, 2, 10)}}),
                                  stage(2, {{dir(0, 2, 10), dir(2, 0, 10)}, {dir(1, 3, 1), dir(3, 1, 1)}}),
                                  stage(3, {{dir(0, 3, 10), dir(3, 0, 10)}, {dir(1, 2, 1), dir(2, 1, 1)}})};
  SummaryInput in;
  in.stages = stages;
  in.stages_planned = 3;
  in.complete = true;
  in.endpoints = eps(4, 0);
  in.options = {0.9, 10};
  Summary s = make_summary(in);
  EXPECT_FALSE(s.doc.pass);
  const auto& e = s.doc.endpoints;
  EXPECT_EQ(e[0].verdict, Verdict::Pass);
  EXPECT_EQ(e[1].verdict, Verdict::Slow);
  EXPECT_EQ(e[2].verdict, Verdict::Pass);
  EXPECT_EQ(e[3].verdict, Verdict::Pass);
  EXPECT_EQ(s.doc.counts.at("slow"), 6);
  EXPECT_EQ(s.doc.counts.at("pass"), 6);
  int slow_endpoints = 0;
  for (const auto& f : s.findings) slow_endpoints += f.kind == FindingKind::SlowEndpoint;
  EXPECT_EQ(slow_endpoints, 1);
}

TEST(Verdict, UnexplainedBadDirectionMakesSuspect) {
  // Rank 0 is slow towards 1 only; 1 is fine with 2: neither is bad everywhere.
  std::vector<DirectionVerdict> d{{1, 0, 0, 1, 1, 10, Verdict::Slow, "slow"},
                                  {1, 1, 2, 3, 10, 10, Verdict::Pass, ""},
                                  {1, 2, 0, 3, 10, 10, Verdict::Pass, ""},
                                  {1, 3, 1, 2, 10, 10, Verdict::Pass, ""}};
  auto e = judge_endpoints(d, 4, {});
  EXPECT_EQ(e[0].verdict, Verdict::Suspect);
  EXPECT_EQ(e[1].verdict, Verdict::Suspect);
  EXPECT_EQ(e[2].verdict, Verdict::Pass);
  EXPECT_EQ(e[3].verdict, Verdict::Pass);
  EXPECT_DOUBLE_EQ(e[0].min_tx_gbps, 1);
  EXPECT_DOUBLE_EQ(e[1].min_rx_gbps, 1);
  // Peers are told as people name them, "rank N" only while the rank's endpoint is unknown.
  EXPECT_EQ(e[0].reason, "bad directions with healthy peers: stage 1 to rank 1 slow");
  std::vector<EndpointInfo> named(4);
  named[1].host = "node0002";
  named[1].endpoint = "mlx5_0:1";
  EXPECT_EQ(judge_endpoints(d, 4, {}, named)[0].reason,
            "bad directions with healthy peers: stage 1 to node0002 mlx5_0:1 slow");
  EXPECT_EQ(judge_endpoints(d, 4, {}, named)[1].reason, "bad directions with healthy peers: stage 1 from rank 0 slow");
}

TEST(Verdict, LostRankIsNamedAndItsPeersAreNotBlamed) {
  StageResult st = stage(1, {{dir(0, 1, 0, DirectionStatus::Failed)},
                             {dir(2, 3, 10)},
                             {dir(1, 2, 0, DirectionStatus::Failed)},
                             {dir(3, 0, 10)}});
  SummaryInput in;
  in.stages = {st};
  in.endpoints = eps(4, 10);
  in.lost = {{1, "rank 1 (h1 eth0): control connection closed"}};
  in.options = {0.9, 0};
  Summary s = make_summary(in);
  EXPECT_FALSE(s.doc.pass);
  ASSERT_EQ(s.doc.lost_ranks.size(), 1u);
  EXPECT_EQ(s.doc.lost_ranks[0].rank, 1);
  EXPECT_EQ(s.doc.lost_ranks[0].host, "h1");
  const auto& e = s.doc.endpoints;
  EXPECT_EQ(e[1].verdict, Verdict::Failed);
  EXPECT_EQ(e[0].verdict, Verdict::Pass);
  EXPECT_EQ(e[2].verdict, Verdict::Pass);
  bool named = false;
  for (const auto& f : s.findings)
    named |= f.kind == FindingKind::LostRank && f.message.find("rank 1 (h1 eth0)") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(Verdict, AllPassIsPass) {
  SummaryInput in;
  in.stages = {stage(1, {{dir(0, 1, 10), dir(1, 0, 10)}})};
  in.endpoints = eps(2, 10);
  in.complete = true;
  Summary s = make_summary(in);
  EXPECT_TRUE(s.doc.pass);
  EXPECT_EQ(to_json(s.doc).at("verdict"), "pass");
  EXPECT_TRUE(s.findings.empty());
}

TEST(Verdict, SlowFlowFindingNamesHostsAndEndpointsThenRanks) {
  SummaryInput in;
  in.stages = {stage(1, {{dir(0, 1, 5)}})};
  in.endpoints = eps(2, 10);
  in.endpoints[0] = {"node0001", "mlx5_0", "", 0, 0, "InfiniBand", 10, -1};
  in.endpoints[1] = {"node0002", "mlx5_3", "", 0, 0, "InfiniBand", 10, -1};
  in.options = {0.9, 0};
  Summary s = make_summary(in);
  std::string message;
  for (const auto& f : s.findings)
    if (f.kind == FindingKind::SlowFlow) message = f.message;
  EXPECT_EQ(message, "stage 1 flow 0: node0001 mlx5_0 -> node0002 mlx5_3: 5.00 Gb/s < 90% of 10.00 Gb/s");
}

TEST(Verdict, DirectionNameFallsBackToRanksWhenAHostIsUnknown) {
  std::vector<EndpointInfo> e(2);
  e[1].host = "node0002";
  EXPECT_EQ(direction_name(e, 0, 1), "rank 0 -> rank 1");
  EXPECT_EQ(direction_name(e, 0, 7), "rank 0 -> rank 7");
  e[0].host = "node0001";
  EXPECT_EQ(direction_name(e, 0, 1), "node0001 -> node0002");
}

// The burn's findings carry their records as typed details: an endpoint's and a flow's read
// back as the summary has them, and a record missing a field is refused naming the kind.
TEST(Verdict, EndpointAndFlowFindingsReadBackTheirRecords) {
  SummaryInput in;
  in.stages = {stage(1, {{dir(0, 1, 5)}})};
  in.endpoints = eps(2, 10);
  in.options = {0.9, 0};
  Summary s = make_summary(in);
  std::map<FindingKind, const Finding*> by_kind;
  for (const auto& f : s.findings) by_kind[f.kind] = &f;
  ASSERT_TRUE(by_kind.count(FindingKind::SlowFlow));
  const DirectionVerdict flow = details_of<FindingKind::SlowFlow>(*by_kind[FindingKind::SlowFlow]);
  EXPECT_EQ(flow.stage, 1);
  EXPECT_EQ(flow.from, 0);
  EXPECT_EQ(flow.to, 1);
  EXPECT_DOUBLE_EQ(flow.gbps, 5);
  EXPECT_EQ(flow.verdict, Verdict::Slow);
  int endpoints = 0;
  for (const auto& f : s.findings) {
    if (f.kind != FindingKind::SuspectEndpoint && f.kind != FindingKind::SlowEndpoint) continue;
    const EndpointRecord r = details_of<FindingKind::SuspectEndpoint, FindingKind::SlowEndpoint>(f);
    // Named as the site names it, the rank only in the record.
    EXPECT_EQ(f.message.rfind("h" + std::to_string(r.rank) + " eth0: ", 0), 0u) << f.message;
    EXPECT_EQ(r.host, "h" + std::to_string(r.rank));
    ++endpoints;
  }
  EXPECT_GT(endpoints, 0);

  Finding broken = *by_kind[FindingKind::SlowFlow];
  broken.details.erase("gbps");
  try {
    details_of<FindingKind::SlowFlow>(broken);
    ADD_FAILURE() << "a flow record without gbps was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "slow_flow details: field 'gbps' missing");
  }
  try {
    details_of<FindingKind::SlowEndpoint, FindingKind::SuspectEndpoint>(broken);
    ADD_FAILURE() << "a flow's details were read as an endpoint's";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "details of slow_endpoint or suspect_endpoint asked of a slow_flow finding");
  }
}
