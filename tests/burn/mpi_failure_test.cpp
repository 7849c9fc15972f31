// End to end: a rank killed or stopped mid-stage, and Ctrl-C. Results already measured must
// survive, the other flows go on, and the rank at fault is named.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <map>
#include <thread>

#include "burn_run.h"

using namespace burntest;
using nlohmann::json;

namespace {

class BurnFailure : public MpiRunTest {
 protected:
  // Each rank records its pid (sh's exec keeps it) so the test can signal one rank.
  Launch start(int np, const std::string& burn_args, const std::vector<std::string>& mpi_args = {}) {
    return start_mpirun(np,
                        "echo $$ > " + dir_ + "/pid.$OMPI_COMM_WORLD_RANK; exec " + ibburn_path() + " burn --out " +
                            dir_ + " " + burn_args,
                        mpi_args);
  }
  // Three "hosts" of two ranks, each rank in its own UTS namespace named hosta, hostb or
  // hostc: hostb's and hostc's first ranks (2 and 4) relay their host's control channels.
  Launch start_on_three_hosts(const std::string& burn_args) {
    return start_mpirun(6,
                        "echo $$ > " + dir_ + "/pid.$OMPI_COMM_WORLD_RANK; h=host$(echo abc | cut -c$((" +
                            "OMPI_COMM_WORLD_RANK / 2 + 1))); exec unshare --uts sh -c \"hostname $h && exec " +
                            ibburn_path() + " burn --out " + dir_ + " " + burn_args + "\"",
                        {"--mca", "orte_enable_recovery", "1"});
  }
};

bool has_stage_line(const std::string& text) { return text.find("\"type\":\"stage\"") != std::string::npos; }
// Rank 0 prints a progress line every second of a stage.
bool stage_running(const std::string& text) { return text.find("burn: stage 1/") != std::string::npos; }

const json* find_flow(const json& stage, int src, int dst) {
  for (const auto& f : stage.at("flows"))
    if (f.at("src") == src && f.at("dst") == dst) return &f;
  return nullptr;
}

}  // namespace

// With recovery enabled (what docs/burn.md advises), the job survives the death: the stage
// completes for everyone else and later stages skip the dead rank.
TEST_F(BurnFailure, KilledRankFailsOnlyItsFlowsAndIsNamed) {
  Launch l = start(4, "--pattern pairs --duration 5s --streams 2 --expect-gbps 0.01 --timeout 20s",
                   {"--mca", "orte_enable_recovery", "1"});
  ASSERT_TRUE(wait_for_file(dir_ + "/mpirun.log", 60000, stage_running)) << log();  // stage 1 running
  pid_t victim = read_pid(dir_ + "/pid.3");
  ASSERT_GT(victim, 0);
  kill(victim, SIGKILL);
  wait_mpirun(l);  // with recovery on, Open MPI 4 exits 0 whatever rank 0 returns: judge the files
  bool named = false;
  std::vector<json> stages;
  for (const auto& line : read_jsonl(dir_ + "/results.jsonl")) {
    if (line.at("type") == "rank_lost" && line.at("rank") == 3) named = true;
    if (line.at("type") == "stage") stages.push_back(line);
  }
  EXPECT_TRUE(named) << read_text(dir_ + "/results.jsonl");
  ASSERT_EQ(stages.size(), 1u) << log();
  const json* good = find_flow(stages[0], 0, 2);
  const json* bad = find_flow(stages[0], 1, 3);
  ASSERT_TRUE(good && bad);
  for (const auto& d : good->at("directions")) {
    EXPECT_EQ(d.at("status"), "ok") << d.dump();
    EXPECT_GT(d.at("bytes").get<double>(), 0);
  }
  for (const auto& d : bad->at("directions")) {
    EXPECT_EQ(d.at("status"), "failed");
    EXPECT_NE(d.at("reason").get<std::string>().find("rank 3"), std::string::npos) << d.dump();
  }
  json s = read_json(dir_ + "/summary.json");
  // The stage ran to its end, but rank 3's flows were not measured to it: never pass, and not
  // a plain fail either (docs/formats.md, "summary.json's verdict").
  EXPECT_EQ(s.at("verdict"), "incomplete");
  EXPECT_EQ(s.at("complete"), true);
  ASSERT_EQ(s.at("lost_ranks").size(), 1u);
  EXPECT_EQ(s.at("lost_ranks")[0].at("rank"), 3);
  EXPECT_NE(log().find("lost rank 3"), std::string::npos) << log();
  EXPECT_EQ(s.at("endpoints")[0].at("verdict"), "pass");
  EXPECT_EQ(s.at("endpoints")[2].at("verdict"), "pass");
  EXPECT_EQ(s.at("endpoints")[3].at("verdict"), "failed");
}

// Plain mpirun aborts the whole job about a second after a rank dies. Everything finished
// before must be intact, and the dead rank named in results.jsonl and summary.json.
TEST_F(BurnFailure, JobAbortedByMpiKeepsFinishedStagesAndNamesTheDeadRank) {
  std::ofstream(dir_ + "/plan.json") << R"({"stages":[
     {"flows":[{"src":0,"dst":2},{"src":1,"dst":3}]},
     {"flows":[{"src":0,"dst":3},{"src":1,"dst":2}]}]})";
  Launch l = start(4, "--plan " + dir_ + "/plan.json --duration 3s --expect-gbps 0.01");
  ASSERT_TRUE(wait_for_file(dir_ + "/results.jsonl", 60000, has_stage_line)) << log();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // into stage 2
  kill(read_pid(dir_ + "/pid.3"), SIGKILL);
  int rc = wait_mpirun(l);
  EXPECT_NE(rc, 0);
  auto lines = read_jsonl(dir_ + "/results.jsonl");
  ASSERT_GE(lines.size(), 3u) << log();
  EXPECT_EQ(lines[1].at("type"), "stage");
  EXPECT_EQ(lines[1].at("index"), 1);
  for (const auto& f : lines[1].at("flows"))
    for (const auto& d : f.at("directions")) EXPECT_EQ(d.at("status"), "ok") << d.dump();
  bool named = false;
  for (const auto& line : lines) named |= line.at("type") == "rank_lost" && line.at("rank") == 3;
  EXPECT_TRUE(named) << read_text(dir_ + "/results.jsonl");
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("complete"), false);
  ASSERT_GE(s.at("lost_ranks").size(), 1u);
  EXPECT_EQ(s.at("lost_ranks")[0].at("rank"), 3);
  EXPECT_GE(s.at("stages_run"), 1);
}

// A rank that stops (SIGSTOP) never reports: after the bounded wait its flows fail with a
// reason, the run ends, and the others' results are complete.
TEST_F(BurnFailure, HungRankIsGivenUpAfterTheTimeout) {
  Launch l = start(4, "--pattern pairs --duration 4s --expect-gbps 0.01 --timeout 4s --stall-timeout 2s",
                   {"--mca", "orte_enable_recovery", "1"});
  ASSERT_TRUE(wait_for_file(dir_ + "/mpirun.log", 60000, stage_running)) << log();
  pid_t victim = read_pid(dir_ + "/pid.3");
  kill(victim, SIGSTOP);
  ASSERT_TRUE(wait_for_file(dir_ + "/results.jsonl", 60000, has_stage_line)) << log();
  kill(victim, SIGKILL);
  wait_mpirun(l);
  std::vector<json> stages;
  for (const auto& line : read_jsonl(dir_ + "/results.jsonl"))
    if (line.at("type") == "stage") stages.push_back(line);
  ASSERT_EQ(stages.size(), 1u);
  for (const auto& d : find_flow(stages[0], 0, 2)->at("directions")) EXPECT_EQ(d.at("status"), "ok") << d.dump();
  for (const auto& d : find_flow(stages[0], 1, 3)->at("directions")) {
    EXPECT_EQ(d.at("status"), "failed");
    EXPECT_NE(d.at("reason").get<std::string>().find("rank 3"), std::string::npos) << d.dump();
  }
  json s = read_json(dir_ + "/summary.json");
  ASSERT_EQ(s.at("lost_ranks").size(), 1u);
  EXPECT_EQ(s.at("lost_ranks")[0].at("rank"), 3);
}

// SIGTERM/Ctrl-C on rank 0 mid-stage: a partial summary within 2 s, exit 130.
TEST_F(BurnFailure, InterruptWritesPartialSummaryQuickly) {
  Launch l = start(2, "--pattern pairs --duration 60s --expect-gbps 0.01");
  ASSERT_TRUE(wait_for_file(dir_ + "/mpirun.log", 60000, stage_running)) << log();
  kill(read_pid(dir_ + "/pid.0"), SIGTERM);
  auto sent = std::chrono::steady_clock::now();
  bool written = wait_for_file(dir_ + "/summary.json", 2000, [](const std::string& t) {
    return t.find("\"interrupted\": true") != std::string::npos;
  });
  auto took = std::chrono::steady_clock::now() - sent;
  EXPECT_TRUE(written) << log();
  EXPECT_LT(took, std::chrono::seconds(2));
  wait_mpirun(l);
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("interrupted"), true);
  EXPECT_EQ(s.at("complete"), false);
  auto lines = read_jsonl(dir_ + "/results.jsonl");
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines.back().at("partial"), true);
  EXPECT_GT(lines.back().at("flows")[0].at("directions")[0].at("bytes").get<double>(), 0);
}

// Rank 0 itself killed (-9) in a long stage: summary.json still holds that stage's samples
// up to its last refresh (every 10 s).
TEST_F(BurnFailure, RankZeroKilledMidStageLeavesTheRefreshedSummary) {
  Launch l = start(2, "--pattern pairs --duration 40s --expect-gbps 0.01");
  ASSERT_TRUE(wait_for_file(dir_ + "/mpirun.log", 90000, [](const std::string& t) {
    return t.find("\" 12s/40s") != std::string::npos;
  })) << log();
  kill(read_pid(dir_ + "/pid.0"), SIGKILL);
  wait_mpirun(l);
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("complete"), false);
  ASSERT_EQ(s.at("stages_run"), 1) << s.dump(2);
  ASSERT_EQ(s.at("flows").size(), 2u);
  for (const auto& f : s.at("flows")) {
    EXPECT_EQ(f.at("verdict"), "interrupted") << f.dump();
    EXPECT_GT(f.at("gbps").get<double>(), 0) << f.dump();
  }
}

// Behind a host's relay: a rank that dies is lost alone; the relaying rank that dies takes its
// host's ranks with it, and both are named. The other hosts' flows run to the end.
TEST_F(BurnFailure, HostRelaysCarryTheRanksAndALostRankOrRelayIsNamed) {
  if (std::system("unshare --uts true >/dev/null 2>&1") != 0) GTEST_SKIP() << "no UTS namespaces here";
  // pairs: 0-3, 1-4 and 2-5, both ways, in one stage.
  Launch l = start_on_three_hosts("--pattern pairs --duration 6s --streams 1 --expect-gbps 0.01 --timeout 20s");
  ASSERT_TRUE(wait_for_file(dir_ + "/mpirun.log", 60000, stage_running)) << log();
  EXPECT_NE(log().find("6 ranks reached rank 0 over 4 connections (host relays)"), std::string::npos) << log();
  kill(read_pid(dir_ + "/pid.5"), SIGKILL);  // hostc's second rank
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(read_pid(dir_ + "/pid.2"), SIGKILL);  // hostb's first rank: its relay goes with it
  wait_mpirun(l);
  json s = read_json(dir_ + "/summary.json");
  EXPECT_EQ(s.at("complete"), true) << log();
  std::map<int, std::string> lost;
  for (const auto& r : s.at("lost_ranks")) lost[r.at("rank").get<int>()] = r.at("reason").get<std::string>();
  ASSERT_EQ(lost.size(), 3u) << s.at("lost_ranks").dump(1);
  EXPECT_NE(lost[5].find("relay: connection closed"), std::string::npos) << lost[5];
  EXPECT_NE(lost[2].find("relay link"), std::string::npos) << lost[2];
  EXPECT_NE(lost[3].find("relay link"), std::string::npos) << lost[3];
  // 1-4 is the one flow that touches none of them: it passes, both ways.
  int passed = 0;
  for (const auto& f : s.at("flows")) {
    const int from = f.at("from").get<int>(), to = f.at("to").get<int>();
    if (std::min(from, to) == 1 && std::max(from, to) == 4) {
      EXPECT_EQ(f.at("verdict"), "pass") << f.dump();
      ++passed;
    }
  }
  EXPECT_EQ(passed, 2) << s.at("flows").dump(1);
}
