// `burn --transport sim` end to end in one process: the plan's stages through the fluid
// model, the burn's result files, and the route explainer naming a degraded cable in the
// summary after probe stages.
#include "fluid/simulated_burn.h"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <fstream>

#include "burn/session_observer.h"
#include "burn/stage_plan.h"
#include "burn/summary.h"
#include "common/file_io.h"
#include "tests/routing/fat_tree_fixture.h"
#include "localization/burn_localize.h"
#include "plan/plan_output.h"
#include "planner/planner.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::fluid;
using namespace ibburn::localization;
using namespace ibburn::plan;
using namespace ibburn::planner;
using namespace ibburn::routing;
using nlohmann::json;

namespace {

std::shared_ptr<const RouteModel> small_tree() {
  auto t = fixture::make_fat_tree(4, 4, 4);
  auto m = std::make_shared<RouteModel>();
  m->fabric = std::move(t.fabric);
  m->cables = std::make_unique<CableIndex>(m->fabric, 200);
  m->lfts = std::move(t.lfts);
  m->router = std::make_unique<LftRouter>(m->fabric, *m->cables, *m->lfts);
  return m;
}

class SimulatedBurnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = small_tree();
    run_.routes = model_;
    run_.endpoints = all_hca_ports(model_->fabric);
    run_.plan = to_burn_plan(make_plan(model_->fabric, *model_->cables, *model_->router, run_.endpoints, {}), "t");
    o_.transport = burn::TransportKind::Sim;
    o_.out_dir = dir_;
    o_.quiet = true;
    o_.duration = std::chrono::milliseconds(10);  // wall-clock time per stage
  }
  void explain_with(int probes) {
    auto m = model_;
    o_.observer = [m, probes] { return std::make_shared<RouteExplainer>(m, probes); };
  }
  void degrade(topo::PortEnd p, double f) {
    EdgeId e = model_->cables->out_edge(p);
    run_.degrade[e] = run_.degrade[model_->cables->reverse(e)] = f;
  }
  std::vector<json> lines() {
    std::vector<json> out;
    std::ifstream in(dir_ + "/results.jsonl");
    for (std::string l; std::getline(in, l);) out.push_back(json::parse(l));
    return out;
  }
  json summary() { return json::parse(read_file(dir_ + "/summary.json")); }

  ibburn::testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
  std::shared_ptr<const RouteModel> model_;
  SimulatedBurn run_;
  burn::BurnOptions o_;
};

}  // namespace

TEST_F(SimulatedBurnTest, HealthyFabricPassesAtLineRateWithTheBurnsFiles) {
  explain_with(6);
  ASSERT_EQ(run_simulated_burn(run_, o_), 0);
  auto l = lines();
  ASSERT_EQ(l.size(), 1 + run_.plan.stages.size());  // header, one line per stage, no probe
  EXPECT_EQ(l[0]["transport"], "sim");
  ASSERT_EQ(l[0]["endpoints"].size(), 16u);
  EXPECT_EQ(l[0]["endpoints"][0]["host"], "host0");
  EXPECT_EQ(l[0]["endpoints"][0]["endpoint"], "mlx5_0:1");
  EXPECT_EQ(l[0]["endpoints"][0]["rate_gbps"], 200.0);
  for (const auto& f : l[1]["flows"])
    for (const auto& d : f["directions"]) {
      EXPECT_NEAR(d["gbps"].get<double>(), 200.0, 1e-6) << d.dump();
      EXPECT_NEAR(d["bytes"].get<double>(), 200e9 / 8 * 0.01, 1e3);  // 10 ms at 200 Gb/s
    }
  auto s = summary();
  EXPECT_EQ(s["verdict"], "pass");
  EXPECT_EQ(s["complete"], true);
  EXPECT_TRUE(s["suspects"].empty());
}

// Every stage starts with summary.json on disk saying running, so a run killed in its first
// stage never leaves a directory without a summary or with one that reads as finished.
TEST_F(SimulatedBurnTest, SummarySaysRunningBeforeEveryStage) {
  struct Watch : burn::SessionObserver {
    std::string summary_path;
    std::vector<std::string> states;  // summary.json's state as each stage starts
    void explain(burn::Summary&, const std::vector<burn::EndpointInfo>&) override {}
    std::optional<burn::Stage> follow_up(const burn::Summary&, const std::vector<burn::EndpointInfo>&, int) override {
      return std::nullopt;
    }
    void stage_starting(int, const burn::Stage&) override {
      states.push_back(burn::to_string(burn::run_state(burn::load_summary(summary_path))));
    }
  };
  auto watch = std::make_shared<Watch>();
  watch->summary_path = dir_ + "/summary.json";
  o_.observer = [watch] { return watch; };
  ASSERT_EQ(run_simulated_burn(run_, o_), 0);
  ASSERT_FALSE(run_.plan.stages.empty());
  EXPECT_EQ(watch->states, std::vector<std::string>(run_.plan.stages.size(), "running"));
  EXPECT_EQ(summary()["state"], "complete");
}

// Over a file fabric nothing happens on the fabric during a stage, so it takes no wall time;
// the stage's seconds still come from --duration (bytes = rate x duration).
TEST_F(SimulatedBurnTest, FileFabricStagesTakeNoWallTime) {
  o_.duration = std::chrono::hours(1);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(run_simulated_burn(run_, o_), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
  const json d = lines()[1]["flows"][0]["directions"][0];
  EXPECT_EQ(d["seconds"], 3600.0);
  EXPECT_NEAR(d["bytes"].get<double>(), 200e9 / 8 * 3600, 1e6);
}

// Over a live fabric (ibsim, hardware) a stage lasts its duration, so what happens on the
// fabric meanwhile lands in its window; it waits asleep (past the first second too, with no
// progress tick to call).
TEST_F(SimulatedBurnTest, LiveFabricStagesTakeTheirDuration) {
  run_.live_fabric = true;
  o_.duration = std::chrono::milliseconds(2500);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  ASSERT_EQ(run_simulated_burn(run_, o_), 0);
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(waited, o_.duration * run_.plan.stages.size());
  // Asleep it costs milliseconds; a spin past the first second costs its share of a core even
  // on a loaded machine.
  EXPECT_LT(static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC, 0.1);
}

TEST_F(SimulatedBurnTest, DegradedCableIsNamedInTheSummaryAfterProbes) {
  const auto& t = model_->fabric;
  topo::PortEnd bad{*t.find_name("leaf1"), 6};  // an uplink of leaf 1
  degrade(bad, 0.25);
  explain_with(6);
  ASSERT_EQ(run_simulated_burn(run_, o_), 1);
  auto l = lines();
  ASSERT_GT(l.size(), 1 + run_.plan.stages.size()) << "probe stages ran";
  EXPECT_EQ(l.back()["name"].get<std::string>().rfind("probe", 0), 0u) << l.back()["name"];
  auto s = summary();
  EXPECT_EQ(s["verdict"], "fail");
  ASSERT_EQ(s["suspects"].size(), 2u) << s["suspects"].dump(1);  // both directions of the cable
  std::set<std::string> named;
  for (const auto& x : s["suspects"]) {
    EXPECT_GE(x["confidence"].get<double>(), 0.75) << x.dump();
    EXPECT_TRUE(x["tied_with"].empty()) << x.dump();
    named.insert(x["from"].get<std::string>());
  }
  EXPECT_TRUE(named.count(t.port_name(bad))) << s["suspects"].dump(1);
  // The hosts on the slow paths are not blamed: the cable explains their slow directions.
  int explained = 0;
  for (const auto& e : s["endpoints"]) {
    EXPECT_NE(e["verdict"], "suspect") << e.dump();
    explained += e.contains("explained_by");
  }
  EXPECT_GT(explained, 0);
}

TEST_F(SimulatedBurnTest, WithoutProbesTheTieIsReportedNotGuessed) {
  degrade({*model_->fabric.find_name("leaf1"), 6}, 0.25);
  explain_with(0);
  ASSERT_EQ(run_simulated_burn(run_, o_), 1);
  EXPECT_EQ(lines().size(), 1 + run_.plan.stages.size());
  auto s = summary();
  ASSERT_FALSE(s["suspects"].empty());
  for (const auto& x : s["suspects"]) {
    EXPECT_LT(x["confidence"].get<double>(), 0.75) << x.dump();
    EXPECT_FALSE(x["tied_with"].empty()) << x.dump();
  }
}

TEST_F(SimulatedBurnTest, DeadCableIsNamed) {
  degrade({*model_->fabric.find_name("spine2"), 3}, 0.0);
  explain_with(6);
  ASSERT_EQ(run_simulated_burn(run_, o_), 1);
  auto s = summary();
  EXPECT_GT(s["counts"].value("slow", 0), 0);
  ASSERT_FALSE(s["suspects"].empty());
  EXPECT_GE(s["suspects"][0]["confidence"].get<double>(), 0.75);
}
