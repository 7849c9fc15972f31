#include <gtest/gtest.h>

#include "burn/engine.h"
#include "burn/results.h"
#include "burn/verdict.h"
#include "common/error.h"

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
  // Skipped directions are not judged, and results.jsonl says so.
  EXPECT_EQ(to_json(r)["flows"][0]["directions"][1]["status"], "skipped");
  auto v = judge_stage(r, {}, {0.9, 1.0});
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

TEST(StageJson, HoldsWhatTheStageMeasured) {
  Stage st{"s", {{0, 1, true, 3}}};
  std::vector<RankReport> reports{{1, {side(0, 0, 1, true, 123, "x")}}};
  StageResult r = merge_stage(2, st, reports, {}, false);
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["type"], "stage");
  EXPECT_EQ(j["index"], 2);
  const auto& f = j["flows"][0];
  EXPECT_EQ(f["src"], 0);
  EXPECT_EQ(f["dst"], 1);
  EXPECT_EQ(f["bidirectional"], true);
  EXPECT_EQ(f["streams"], 3);
  EXPECT_EQ(f["directions"][0]["bytes"], 123u);
  EXPECT_EQ(f["directions"][0]["status"], "failed");
  EXPECT_EQ(f["directions"][0]["samples_gbps"], nlohmann::json::array({1, 2}));
}

// The page reads stage lines back (its bandwidth over time): what the burn wrote comes back,
// a dropped field is refused with its place in the line.
TEST(StageJson, ReadBackStrictly) {
  Stage st{"s", {{0, 1, true, 3}}};
  std::vector<RankReport> reports{{1, {side(0, 0, 1, true, 123, "x")}}};
  const StageResult r = merge_stage(2, st, reports, {}, false);
  const auto fail = [](const std::string& field, const std::string& what) {
    throw std::invalid_argument(field + ": " + what);
  };
  nlohmann::json j = to_json(r);
  const StageResult back = stage_result_from_json({j, fail});
  EXPECT_EQ(back.index, 2);
  EXPECT_EQ(back.name, "s");
  ASSERT_EQ(back.flows.size(), 1u);
  EXPECT_EQ(back.flows[0].flow.streams, 3);
  ASSERT_EQ(back.flows[0].directions.size(), r.flows[0].directions.size());
  const auto& d = back.flows[0].directions[0];
  EXPECT_EQ(d.bytes, 123u);
  EXPECT_EQ(d.status, DirectionStatus::Failed);
  EXPECT_EQ(d.samples_gbps, r.flows[0].directions[0].samples_gbps);
  EXPECT_EQ(d.reason, r.flows[0].directions[0].reason);
  j["flows"][0]["directions"][0].erase("bytes");
  try {
    stage_result_from_json({j, fail});
    FAIL() << "a stage without bytes was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "flows[0].directions[0].bytes: missing");
  }
}

// results.jsonl's run header is read back by one strict codec (the control protocol's Hello
// uses the same one): what the burn wrote comes back, a dropped field is refused by name.
TEST(RunHeader, EndpointsRoundTrip) {
  EndpointInfo ib{"node1", "mlx5_0:1", "", 0x0002c90300a1b2c3ull, 17, "InfiniBand", 400, 3};
  EndpointInfo tcp{"node2", "eth0", "10.0.0.2", 0, 0, "Ethernet", 100, -1};
  const nlohmann::json h = run_header(BurnOptions{}, Plan{}, {ib, tcp});
  EXPECT_EQ(h.at("schema_version"), kResultsSchemaVersion);
  EXPECT_EQ(h.at("endpoints")[0].at("port_guid"), "0x0002c90300a1b2c3");
  EXPECT_FALSE(h.at("endpoints")[1].contains("port_guid"));
  const auto back = read_run_endpoints(h.dump() + "\n{\"type\":\"stage\"}\n", "run/results.jsonl");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].host, ib.host);
  EXPECT_EQ(back[0].endpoint, ib.endpoint);
  EXPECT_EQ(back[0].port_guid, ib.port_guid);
  EXPECT_EQ(back[0].lid, 17);
  EXPECT_EQ(back[0].gpu, 3);
  EXPECT_DOUBLE_EQ(back[0].rate_gbps, 400);
  EXPECT_EQ(back[1].address, "10.0.0.2");
  EXPECT_EQ(back[1].link_layer, "Ethernet");
  EXPECT_EQ(back[1].port_guid, 0u);
  EXPECT_EQ(back[1].gpu, -1);
}

TEST(RunHeader, MissingFieldIsRefusedByName) {
  nlohmann::json h = run_header(BurnOptions{}, Plan{}, {EndpointInfo{"node1", "eth0", "", 0, 0, "Ethernet", 100, -1}});
  h["endpoints"][0].erase("rate_gbps");
  try {
    read_run_endpoints(h.dump(), "run/results.jsonl");
    FAIL() << "read a header without endpoints[0].rate_gbps";
  } catch (const ibburn::InputError& e) {
    EXPECT_STREQ(e.what(), "run/results.jsonl:1: endpoints[0].rate_gbps: missing");
  }
  h = run_header(BurnOptions{}, Plan{}, {});
  h["endpoints"] = nlohmann::json::array({{{"host", "n"},
                                           {"endpoint", "e"},
                                           {"address", ""},
                                           {"link_layer", ""},
                                           {"rate_gbps", 1},
                                           {"gpu", 0},
                                           {"port_guid", "0xzz"}}});
  EXPECT_THROW(read_run_endpoints(h.dump(), "r.jsonl"), ibburn::InputError);
}

// A header from before schema_version holds the same fields and is read; an unknown version is
// refused naming it (exit 2), never read with defaults.
TEST(RunHeader, SchemaVersionIsReadOrRefusedByName) {
  nlohmann::json h = run_header(BurnOptions{}, Plan{}, {EndpointInfo{"node1", "eth0", "", 0, 0, "Ethernet", 100, -1}});
  h.erase("schema_version");
  EXPECT_EQ(read_run_endpoints(h.dump(), "old/results.jsonl").size(), 1u);
  h["schema_version"] = 3;
  try {
    read_run_endpoints(h.dump(), "new/results.jsonl");
    FAIL() << "read schema version 3";
  } catch (const ibburn::InputError& e) {
    EXPECT_STREQ(e.what(),
                 "new/results.jsonl:1: schema_version: results.jsonl schema version 3, this ibburn reads version 1");
    EXPECT_EQ(e.code(), ibburn::kExitInput);
  }
  EXPECT_THROW(read_run_endpoints(R"({"type":"stage"})", "r.jsonl"), ibburn::InputError);
}

TEST(RunHeader, VerbsRunsStateTheirPath) {
  BurnOptions o;
  o.transport = TransportKind::Verbs;
  o.extra = {{"sl", "2"}, {"tc", "106"}};
  const nlohmann::json h = run_header(o, Plan{}, {});
  EXPECT_EQ(h.at("verbs_path").at("sl"), 2);
  EXPECT_EQ(h.at("verbs_path").at("tc"), 106);
  EXPECT_EQ(h.at("verbs_path").at("timeout"), 18);
  o.transport = TransportKind::Tcp;
  EXPECT_FALSE(run_header(o, Plan{}, {}).contains("verbs_path"));
}
