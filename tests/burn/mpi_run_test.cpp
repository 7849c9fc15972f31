// End to end: mpirun with 2 to 8 ranks on loopback, the TCP transport, short stages.
#include <gtest/gtest.h>

#include <fstream>

#include "burn_run.h"

using namespace burntest;
using nlohmann::json;

namespace {

class BurnMpi : public MpiRunTest {
 protected:
  std::vector<json> stages() {
    std::vector<json> out;
    for (auto& l : read_jsonl(dir_ + "/results.jsonl"))
      if (l.at("type") == "stage") out.push_back(l);
    return out;
  }
};

}  // namespace

TEST_F(BurnMpi, TwoRanksPairsPassAndRecordEndpoints) {
  int rc = run_burn(2, "--pattern pairs --duration 2s --streams 2 --expect-gbps 0.01");
  ASSERT_EQ(rc, 0) << log();
  auto lines = read_jsonl(dir_ + "/results.jsonl");
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0].at("type"), "run");
  ASSERT_EQ(lines[0].at("endpoints").size(), 2u);
  EXPECT_EQ(lines[0].at("endpoints")[1].at("address"), "127.0.0.1");
  EXPECT_FALSE(lines[0].at("endpoints")[1].at("host").get<std::string>().empty());
  auto st = stages();
  ASSERT_EQ(st.size(), 1u);
  const auto& flow = st[0].at("flows")[0];
  ASSERT_EQ(flow.at("directions").size(), 2u);
  for (const auto& d : flow.at("directions")) {
    EXPECT_EQ(d.at("status"), "ok") << d.dump();
    EXPECT_GT(d.at("bytes").get<double>(), 0);
    EXPECT_GE(d.at("samples_gbps").size(), 1u);  // sampled every second
  }
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("complete"), true);
  EXPECT_EQ(s.at("verdict"), "pass");
  EXPECT_EQ(s.at("endpoints")[0].at("verdict"), "pass");
  EXPECT_NE(log().find("stage 1/1"), std::string::npos) << log();  // progress on rank 0
}

TEST_F(BurnMpi, FourRanksShiftWithVerification) {
  int rc = run_burn(4, "--pattern shift:2 --duration 2s --streams 1 --verify --expect-gbps 0.01 --msg-size 256K");
  ASSERT_EQ(rc, 0) << log();
  auto st = stages();
  ASSERT_EQ(st.size(), 2u);
  for (const auto& s : st) {
    ASSERT_EQ(s.at("flows").size(), 4u);
    for (const auto& f : s.at("flows")) {
      const auto& d = f.at("directions")[0];
      EXPECT_EQ(d.at("status"), "ok") << d.dump();
      EXPECT_EQ(d.at("mismatches"), 0);
      EXPECT_EQ(d.at("errors"), 0);
    }
  }
}

TEST_F(BurnMpi, EightRanksOneToOneRunsEveryRound) {
  int rc = run_burn(8, "--pattern one-to-one --duration 1s --streams 1 --quiet");
  ASSERT_EQ(rc, 0) << log();  // loopback has no known rate: unjudged, no finding
  auto st = stages();
  ASSERT_EQ(st.size(), 7u);
  for (const auto& s : st) EXPECT_EQ(s.at("flows").size(), 4u);
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("counts").at("unjudged"), 56);
  EXPECT_EQ(s.at("stages_run"), 7);
}

TEST_F(BurnMpi, SlowFlowsAgainstAnImpossibleExpectationExitOne) {
  int rc = run_burn(2, "--pattern pairs --duration 1s --expect-gbps 100000 --quiet");
  EXPECT_EQ(rc, 1) << log();
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("verdict"), "fail");
  EXPECT_EQ(s.at("counts").at("slow"), 2);
}

TEST_F(BurnMpi, PlanFileRunsItsStagesAndBadPlanIsInputError) {
  std::ofstream(dir_ + "/plan.json")
      << R"({"stages":[{"name":"one way","flows":[{"src":2,"dst":0,"bidirectional":false,"streams":3}]},
     {"flows":[{"src":0,"dst":1},{"src":1,"dst":2,"bidirectional":false}]}]})";
  int rc = run_burn(3, "--plan " + dir_ + "/plan.json --duration 1s --quiet");
  ASSERT_EQ(rc, 0) << log();
  auto st = stages();
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].at("name"), "one way");
  EXPECT_EQ(st[0].at("flows")[0].at("streams"), 3);
  EXPECT_EQ(st[1].at("flows").size(), 2u);

  std::ofstream(dir_ + "/bad.json") << R"({"stages":[{"flows":[{"src":0,"dst":5}]}]})";
  rc = run_burn(2, "--plan " + dir_ + "/bad.json --duration 1s");
  EXPECT_EQ(rc, 2) << log();
  EXPECT_NE(log().find("bad.json: stage 1 flow 1: dst 5 >= 2 ranks"), std::string::npos) << log();
}

TEST_F(BurnMpi, NoRankCanStartIsAnEnvironmentError) {
  int rc = run_burn(2, "--pattern pairs --duration 1s --bind no-such-if0,no-such-if1");
  EXPECT_EQ(rc, 3) << log();
  EXPECT_NE(log().find("no-such-if"), std::string::npos) << log();
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("lost_ranks").size(), 2u);
}
