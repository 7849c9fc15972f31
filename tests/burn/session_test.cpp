// Rank 0's session (burn/session.h) with a fake stage runner and fake observers, no MPI and no
// fabric: what it records after each stage, the order it calls the observers in, and a
// follow-up stage an observer asks for.
#include "burn/session.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/summary.h"
#include "common/exit_codes.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::burn;
using nlohmann::json;

namespace {

std::vector<json> jsonl(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

Stage two_rank_stage(const std::string& name) { return {name, {Flow{0, 1, false, 0}}}; }

// Every direction of the stage at `gbps`; before it runs, what summary.json says then.
class FakeRunner : public StageRunner {
 public:
  FakeRunner(std::string summary_path, std::vector<std::string>& log)
      : summary_path_(std::move(summary_path)), log_(log) {}

  StageResult run_stage(int index, const Stage& stage) override {
    log_.push_back("run " + std::to_string(index));
    stages_on_disk.push_back(load_summary(summary_path_).stages_run);
    StageResult r;
    r.index = index;
    r.name = stage.name;
    for (std::uint32_t id = 0; id < stage.flows.size(); ++id) {
      DirectionResult d;
      d.from = stage.flows[id].src;
      d.to = stage.flows[id].dst;
      d.seconds = 1;
      d.gbps = gbps;
      d.bytes = static_cast<std::uint64_t>(gbps * 1e9 / 8);
      d.samples_gbps = {gbps};
      r.flows.push_back({id, stage.flows[id], {d}});
    }
    return r;
  }
  void add_to(SummaryInput& in) const override { in.lost = lost; }
  void follow_up_starting(int index, const Stage& stage) override {
    log_.push_back("follow-up " + std::to_string(index) + " " + stage.name);
  }
  void stage_recorded(const StageResult& r, const Summary& s) override {
    log_.push_back("recorded " + std::to_string(r.index) + " of " + std::to_string(s.doc.stages_run));
  }

  double gbps = 100;
  LostRanks lost;
  std::vector<int> stages_on_disk;  // summary.json's stages_run as each stage starts

 private:
  std::string summary_path_;
  std::vector<std::string>& log_;
};

// Logs every hook under its name; asks for `follow_ups` more stages after the plan's.
class FakeObserver : public SessionObserver {
 public:
  FakeObserver(std::string name, std::vector<std::string>& log, int follow_ups = 0)
      : name_(std::move(name)), log_(log), follow_ups_(follow_ups) {}
  void explain(Summary& s, const std::vector<EndpointInfo>&) override {
    log_.push_back(name_ + " explain " + std::to_string(s.doc.stages_run));
    if (!s.doc.suspects) s.doc.suspects.emplace();  // summary.json has the notes with the suspects
    s.doc.localization_notes.push_back("seen by " + name_);
  }
  std::optional<Stage> follow_up(const Summary&, const std::vector<EndpointInfo>&, int extra_run) override {
    log_.push_back(name_ + " follow_up " + std::to_string(extra_run));
    if (extra_run >= follow_ups_) return std::nullopt;
    return two_rank_stage(name_ + " probe");
  }
  std::optional<Plan> plan_for(const std::vector<EndpointInfo>& eps) override {
    if (plan.stages.empty()) return std::nullopt;
    log_.push_back(name_ + " plan_for " + std::to_string(eps.size()));
    return plan;
  }
  void stage_starting(int index, const Stage&) override {
    log_.push_back(name_ + " starting " + std::to_string(index));
  }
  void stage_finished(const StageResult& r) override { log_.push_back(name_ + " finished " + std::to_string(r.index)); }

  Plan plan;  // plan_for's answer when it has stages

 private:
  std::string name_;
  std::vector<std::string>& log_;
  int follow_ups_;
};

class SessionTest : public ::testing::Test {
 protected:
  SessionTest() {
    o_.out_dir = dir_.path() + "/out";  // the session makes it
    o_.expect_gbps = 100;
    o_.transport = TransportKind::Sim;
  }
  std::vector<EndpointInfo> endpoints() const {
    return {EndpointInfo{"node0", "mlx5_0:1", "", 0, 0, "InfiniBand", 100, -1},
            EndpointInfo{"node1", "mlx5_0:1", "", 0, 0, "InfiniBand", 100, -1}};
  }
  Plan plan(int stages) const {
    Plan p{"t", {}};
    for (int i = 1; i <= stages; ++i) p.stages.push_back(two_rank_stage("stage " + std::to_string(i)));
    return p;
  }
  std::string results() const { return o_.out_dir + "/results.jsonl"; }
  std::string summary() const { return o_.out_dir + "/summary.json"; }

  ibburn::testing::TempDir dir_;
  SessionOptions o_;
  std::vector<std::string> log_;
  FakeRunner runner_{dir_.path() + "/out/summary.json", log_};
};

TEST_F(SessionTest, RecordsEveryStageAndRewritesTheSummaryAfterEach) {
  Session session(o_, runner_, {});
  session.open(plan(3), endpoints());
  const Summary last = session.run();

  // Each stage found the previous ones' summary on disk: one rewrite per stage.
  EXPECT_EQ(runner_.stages_on_disk, (std::vector<int>{0, 1, 2}));
  const auto lines = jsonl(results());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["type"], "run");
  EXPECT_EQ(lines[0]["transport"], "sim");
  EXPECT_EQ(lines[0]["endpoints"].size(), 2u);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(lines[i]["index"], i);
    EXPECT_EQ(lines[i]["name"], "stage " + std::to_string(i));
  }
  const BurnSummary doc = load_summary(summary());
  EXPECT_TRUE(doc.complete);
  EXPECT_EQ(doc.stages_run, 3);
  EXPECT_EQ(doc.stages_planned, 3);
  EXPECT_TRUE(doc.pass);
  EXPECT_TRUE(last.doc.complete);
  EXPECT_EQ(session.conclude(last, "3 stage(s) faked"), kExitOk);
  EXPECT_EQ(log_, (std::vector<std::string>{"run 1", "recorded 1 of 1", "run 2", "recorded 2 of 2", "run 3",
                                            "recorded 3 of 3"}));
}

// Around each stage the observers in their order; each summary (the first one before stage
// 1) explained by both; after the plan's stages each asked for a follow-up in turn until
// neither has one.
TEST_F(SessionTest, CallsTheObserversInOrder) {
  auto a = std::make_shared<FakeObserver>("a", log_), b = std::make_shared<FakeObserver>("b", log_);
  Session session(o_, runner_, {a, b});
  session.open(plan(1), endpoints());
  const Summary last = session.run();
  EXPECT_EQ(log_,
            (std::vector<std::string>{"a explain 0", "b explain 0", "a starting 1", "b starting 1", "run 1",
                                      "a finished 1", "b finished 1", "a explain 1", "b explain 1", "recorded 1 of 1",
                                      "a follow_up 0", "b follow_up 0", "a explain 1", "b explain 1"}));
  EXPECT_EQ(last.doc.localization_notes, (std::vector<std::string>{"seen by a", "seen by b"}));
  EXPECT_EQ(load_summary(summary()).localization_notes, last.doc.localization_notes);
}

// An observer's follow-up stage runs after the plan's, announced by the runner, recorded like
// them; the observers are asked again after it, with one more stage run.
TEST_F(SessionTest, RunsTheFollowUpStageAnObserverAsksFor) {
  auto a = std::make_shared<FakeObserver>("a", log_, 1);
  Session session(o_, runner_, {a});
  session.open(plan(1), endpoints());
  session.run();
  EXPECT_EQ(log_, (std::vector<std::string>{"a explain 0", "a starting 1", "run 1", "a finished 1", "a explain 1",
                                            "recorded 1 of 1", "a follow_up 0", "follow-up 2 a probe", "a starting 2",
                                            "run 2", "a finished 2", "a explain 2", "recorded 2 of 2", "a follow_up 1",
                                            "a explain 2"}));
  ASSERT_EQ(session.plan().stages.size(), 2u);
  EXPECT_EQ(session.plan().stages[1].name, "a probe");
  const auto lines = jsonl(results());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[2]["name"], "a probe");
  const BurnSummary doc = load_summary(summary());
  EXPECT_EQ(doc.stages_run, 2);
  EXPECT_EQ(doc.stages_planned, 2);
  EXPECT_TRUE(doc.complete);
}

// The first observer with a plan gives it; one without is passed over.
TEST_F(SessionTest, TheFirstObserverWithAPlanGivesIt) {
  auto none = std::make_shared<FakeObserver>("none", log_), a = std::make_shared<FakeObserver>("a", log_),
       b = std::make_shared<FakeObserver>("b", log_);
  a->plan = plan(2);
  b->plan = plan(5);
  Session session(o_, runner_, {none, a, b});
  const auto p = session.observers_plan(endpoints());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->stages.size(), 2u);
  EXPECT_EQ(log_, std::vector<std::string>{"a plan_for 2"});
}

// What the runner adds (its lost ranks) and slow flows are in the summary and make findings.
TEST_F(SessionTest, TheRunnersPartAndSlowFlowsAreFindings) {
  runner_.gbps = 10;
  runner_.lost = {{1, "rank 1 (node1): the test lost it"}};
  Session session(o_, runner_, {});
  session.open(plan(1), endpoints());
  const Summary last = session.run();
  const BurnSummary doc = load_summary(summary());
  ASSERT_EQ(doc.lost_ranks.size(), 1u);
  EXPECT_EQ(doc.lost_ranks[0].reason, "rank 1 (node1): the test lost it");
  EXPECT_FALSE(doc.pass);
  EXPECT_FALSE(last.findings.empty());
  EXPECT_EQ(session.conclude(last, "1 stage(s) faked"), kExitFindings);
}

}  // namespace
