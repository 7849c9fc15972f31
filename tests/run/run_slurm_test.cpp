// `ibburn run` under a real Slurm (tests/support/slurm_cluster.h: munged, slurmctld and four
// slurmd, each node its own hostname) over a small ibsim fabric whose hosts are the Slurm
// nodes: srun --mpi=pmix with the TCP transport, --slurm-drain seen in `sinfo -R`, the nightly
// sbatch script, and a step cancelled with scancel. Skips, saying why, where the daemons or
// ibsim cannot start.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/support/sim_fabric.h"
#include "tests/support/slurm_cluster.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

namespace ibburn {
namespace {

using testing::CommandResult;
using testing::SimFabric;
using testing::SimOptions;
using testing::SlurmCluster;
using Clock = std::chrono::steady_clock;

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";
const std::string kNightly = ibburn::testing::source_dir() + "/scripts/nightly.sbatch";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool wait_for_file(const std::string& path, std::chrono::seconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!std::filesystem::exists(path))
    if (Clock::now() > deadline)
      return false;
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return true;
}

// 2 leaves x 2 hosts (host001..host004, one HCA each), 2 spines, 4xHDR: the hosts are the
// Slurm nodes.
wiring::FatTreeDesign design() {
  wiring::FatTreeSpec s;
  s.tiers = 2;
  s.radix = 4;
  s.hosts = 4;
  s.hcas_per_host = 1;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  return wiring::generate_fat_tree(s);
}

class RunSlurm : public ::testing::Test {
 protected:
  wiring::FatTreeDesign plan_ = design();
  ibburn::testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
  std::unique_ptr<SlurmCluster> slurm_;
  std::unique_ptr<SimFabric> fabric_;
  int symbol_errors_ = 0;  // what the simulated HCAs' SymbolErrorCounter was last set to

  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
    slurm_ = std::make_unique<SlurmCluster>();
    if (!slurm_->unavailable().empty()) GTEST_SKIP() << "no Slurm here: " << slurm_->unavailable();
    SimOptions o;
    o.opensm_args = {"-R", "ftree"};
    fabric_ = std::make_unique<SimFabric>(write("net", wiring::to_ibsim_netfile(plan_)), o);
  }

  std::string write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories(std::filesystem::path(dir_ + "/" + name).parent_path());
    std::ofstream(dir_ + "/" + name) << text;
    return dir_ + "/" + name;
  }

  // The TCP transport reports no HCA port: rank k (one task per node, in node order) drives
  // host00(k+1)'s.
  std::string endpoints() const {
    std::string text;
    for (size_t r = 0; r < plan_.hcas.size(); ++r) text += fmt_rank(r, plan_.hcas[r].guid + 1);
    return text;
  }
  static std::string fmt_rank(size_t rank, uint64_t guid) {
    std::ostringstream os;
    os << rank << " 0x" << std::hex << guid << "\n";
    return os.str();
  }

  // A site's directory as scripts/nightly.sbatch reads it.
  std::string site() const {
    write("site/wiring.csv", wiring::to_csv(plan_.wiring));
    write("site/node-name-map", wiring::node_name_map(plan_).to_text());
    write("site/endpoints", endpoints());
    return dir_ + "/site";
  }

  // `ibburn run --transport tcp` as the job's options; TCP's bytes never cross the switches,
  // so coverage from counters is off.
  std::vector<std::string> run_args(const std::string& out, const std::string& duration) const {
    const std::string s = site();
    return {kIbburn,           "run",
            "--transport",     "tcp",
            "--wiring",        s + "/wiring.csv",
            "--node-name-map", s + "/node-name-map",
            "--endpoints",     s + "/endpoints",
            "--coverage",      "0",
            "--probes",        "0",
            "--duration",      duration,
            "--out",           out};
  }

  std::map<std::string, std::string> env() const {
    // Every "node" shares one kernel: Open MPI's shared-memory transport crashes across them.
    return {{"SLURM_CONF", slurm_->conf()}, {"OMPI_MCA_btl", "self,tcp"}};
  }

  CommandResult srun(std::vector<std::string> argv, std::chrono::seconds limit) const {
    std::vector<std::string> all = {"srun", "--mpi=pmix", "-N4", "--ntasks-per-node=1", "--job-name=ibburn-test"};
    all.insert(all.end(), argv.begin(), argv.end());
    return fabric_->run(all, limit, env());
  }

  CommandResult sim_run(const std::string& out, std::vector<std::string> extra, const std::vector<std::string>& bad);

  std::string sim_id(const std::string& hca) const {
    for (const auto& h : plan_.hcas)
      if (h.description == hca) return wiring::ibsim_node_id(topo::NodeType::CA, h.guid);
    throw std::logic_error("no HCA " + hca);
  }
};

// `ibburn run --transport sim` (one process, every HCA a rank) with symbol errors on `bad`
// HCAs' cables during stage 1.
CommandResult RunSlurm::sim_run(const std::string& out, std::vector<std::string> extra,
                                const std::vector<std::string>& bad) {
  std::vector<std::string> argv = {kIbburn,           "run",
                                   "--transport",     "sim",
                                   "--wiring",        site() + "/wiring.csv",
                                   "--node-name-map", dir_ + "/site/node-name-map",
                                   "--sim-console",   fabric_->console_path(),
                                   "--duration",      "2s",
                                   "--probes",        "0",
                                   "--out",           out};
  argv.insert(argv.end(), extra.begin(), extra.end());
  std::thread inject([&] {
    if (bad.empty() || !wait_for_file(out + "/counters-before.json", std::chrono::seconds(60))) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    // The counter is set, not added to: each run's errors go on from the last run's.
    symbol_errors_ += 300;
    for (const auto& hca : bad)
      fabric_->console("PerformanceSet \"" + sim_id(hca) +
                       "\"[1] PortCounters.SymbolErrorCounter=" + std::to_string(symbol_errors_));
  });
  auto r = fabric_->run(argv, std::chrono::seconds(120), env());
  inject.join();
  return r;
}

TEST_F(RunSlurm, SrunOverFourNodesDrainsExactlyTheHostWithSymbolErrors) {
  const std::string out = dir_ + "/run";
  std::vector<std::string> args = run_args(out, "2s");
  args.emplace_back("--slurm-drain");
  std::thread inject([&] {
    if (!wait_for_file(out + "/counters-before.json", std::chrono::seconds(60))) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    fabric_->console("PerformanceSet \"" + sim_id("host003 mlx5_0") + "\"[1] PortCounters.SymbolErrorCounter=300");
  });
  const auto r = srun(args, std::chrono::seconds(120));
  inject.join();
  ASSERT_EQ(r.exit_code, 1) << r.err << slurm_->logs();
  const auto s = nlohmann::json::parse(read(out + "/summary.json"));
  // Four ranks on four hosts, each rank on its node.
  ASSERT_EQ(s["endpoints"].size(), 4u) << s.dump(1);
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(s["endpoints"][k]["host"], plan_.hcas[k].host) << s["endpoints"].dump(1);
  const auto drained = slurm_->drained();
  ASSERT_EQ(drained.size(), 1u) << slurm_->shell("sinfo -R") << r.err;
  EXPECT_EQ(drained[0].rfind("host003|ibburn: errors_under_load: ", 0), 0u) << drained[0];
  EXPECT_EQ(read(out + "/drain.txt").rfind("host003\terrors_under_load: ", 0), 0u) << read(out + "/drain.txt");
}

// The nightly job as a site submits it, pointed at this fabric through its environment: it
// completes, exit 0, with its run directory (named after the job) and the history.
TEST_F(RunSlurm, NightlySbatchCompletesWithItsRunDirectoryAndHistory) {
  const std::string state = dir_ + "/state";
  auto e = env();
  e["IBBURN"] = kIbburn;
  e["IBBURN_SITE"] = site();
  e["IBBURN_STATE"] = state;
  e["IBBURN_TRANSPORT"] = "tcp";
  e["IBBURN_DURATION"] = "1s";
  e["IBBURN_ARGS"] = "--coverage 0 --probes 0";
  const auto r = fabric_->run({"sbatch", "--wait", "--parsable", "-N4", "--ntasks-per-node=1",
                               "--output=" + dir_ + "/nightly-%j.log", kNightly},
                              std::chrono::seconds(180), e);
  const std::string job = r.out.substr(0, r.out.find_first_of(";\n"));
  const std::string log = read(dir_ + "/nightly-" + job + ".log");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << log << slurm_->logs();
  std::vector<std::filesystem::path> runs;
  for (const auto& d : std::filesystem::directory_iterator(state + "/runs")) runs.push_back(d.path());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].filename().string().ends_with("-" + job)) << runs[0];
  EXPECT_NE(log.find("ibburn run: exit 0, outputs in " + runs[0].string()), std::string::npos) << log;
  const auto s = nlohmann::json::parse(read(runs[0].string() + "/summary.json"));
  EXPECT_EQ(s["verdict"], "pass") << s["findings"].dump(1);
  EXPECT_EQ(s["endpoints"].size(), 4u);
  EXPECT_EQ(s["job"]["steps"].back()["name"], "history") << s["job"].dump(1);
  EXPECT_TRUE(std::filesystem::exists(state + "/history.sqlite"));
  EXPECT_EQ(read(runs[0].string() + "/drain.txt"), "");
  EXPECT_TRUE(slurm_->drained().empty()) << slurm_->shell("sinfo -R");
}

// scancel ends the step (SIGTERM to every task, then SIGKILL): what is left reports
// INCOMPLETE, never PASS.
TEST_F(RunSlurm, AStepCancelledWithScancelReportsIncomplete) {
  const std::string out = dir_ + "/run";
  std::string cancelled;
  std::thread cancel([&] {
    if (!wait_for_file(out + "/results.jsonl", std::chrono::seconds(60))) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    cancelled = slurm_->shell("squeue -h -n ibburn-test -o %i");
    slurm_->shell("scancel -n ibburn-test");
  });
  const auto r = srun(run_args(out, "60s"), std::chrono::seconds(120));
  cancel.join();
  ASSERT_FALSE(cancelled.empty()) << r.err;
  EXPECT_NE(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(read(out + "/summary.json"));
  EXPECT_NE(s["job"]["outcome"], "complete") << s["job"].dump(1);
  const auto rep = fabric_->run({kIbburn, "report", out, "-o", dir_ + "/cancelled.html"});
  EXPECT_EQ(rep.exit_code, 1) << rep.err;
  EXPECT_NE(rep.err.find("INCOMPLETE"), std::string::npos) << rep.err;
  EXPECT_NE(read(dir_ + "/cancelled.html").find(">INCOMPLETE<"), std::string::npos);
}

// The drain guard holds for --slurm-drain, hosts with no Slurm node are reported and the rest
// drained, and --slurm-resume returns to service only the nodes ibburn itself drained; every
// action is a line of the run directory's slurm.jsonl.
TEST_F(RunSlurm, TheGuardHoldsUnknownHostsAreReportedAndResumeTouchesOnlyIbburnsOwnDrains) {
  slurm_->shell("scontrol update NodeName=host001 State=DRAIN Reason='ibburn: link_down: an earlier night'");
  slurm_->shell("scontrol update NodeName=host004 State=DRAIN Reason='bad DIMM, ticket 4711'");
  const auto log = [](const std::string& out) {
    std::vector<std::string> lines;
    std::istringstream in(read(out + "/slurm.jsonl"));
    for (std::string l; std::getline(in, l);) {
      const auto j = nlohmann::json::parse(l);
      lines.push_back(j["action"].get<std::string>() + " " + j["host"].get<std::string>() + " " +
                      j["node"].get<std::string>());
    }
    return lines;
  };

  // Two hosts fail, --max-drain 1: nobody is drained. host001 passed and ibburn had drained
  // it: resumed; host004 passed too, but someone else drained it: kept.
  auto r = sim_run(dir_ + "/run1", {"--max-drain", "1", "--slurm-drain", "--slurm-resume"},
                   {"host002 mlx5_0", "host003 mlx5_0"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(read(dir_ + "/run1/summary.json").find("\"drain_limit\""), std::string::npos);
  EXPECT_EQ(slurm_->drained(), std::vector<std::string>{"host004|bad DIMM, ticket 4711"}) << r.err;
  EXPECT_EQ(log(dir_ + "/run1"), (std::vector<std::string>{"resume host001 host001", "kept host004 host004"}));

  // --max-drain 2, and the site's map sends host003 to a node Slurm does not know: host003 is
  // reported, host002 still drained.
  write("slurm-nodes", "host003 cl9-host003\n");
  r = sim_run(dir_ + "/run2", {"--max-drain", "2", "--slurm-drain", "--slurm-node-map", dir_ + "/slurm-nodes"},
              {"host002 mlx5_0", "host003 mlx5_0"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("host host003 has no Slurm node, left alone: --slurm-node-map names cl9-host003"),
            std::string::npos)
      << r.err;
  const auto drained = slurm_->drained();
  ASSERT_EQ(drained.size(), 2u) << r.err;
  EXPECT_EQ(drained[0].rfind("host002|ibburn: errors_under_load: ", 0), 0u) << drained[0];
  EXPECT_EQ(drained[1], "host004|bad DIMM, ticket 4711");
  EXPECT_EQ(log(dir_ + "/run2"), (std::vector<std::string>{"drain host002 host002", "unresolved host003 "}));

  // A clean night with --slurm-resume: host002 is back, host004 still waits for its DIMM.
  r = sim_run(dir_ + "/run3", {"--slurm-drain", "--slurm-resume"}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurm_->drained(), std::vector<std::string>{"host004|bad DIMM, ticket 4711"}) << r.err;
  EXPECT_EQ(log(dir_ + "/run3"), (std::vector<std::string>{"resume host002 host002", "kept host004 host004"}));
}

// Nightly jobs that each hold half the hosts. Night 1 is an srun over host001 and host002 (an
// MPI job's hosts are its ranks'); night 2 an sbatch job on host003 and host004 whose `ibburn
// run --allocation slurm` reads $SLURM_JOB_NODELIST. Each judges only its own hosts: host003's
// symbol errors during night 1 are not told and it is not drained, the cables a night left
// unloaded are one finding, and the history's coverage adds up over the nights.
TEST_F(RunSlurm, PartialAllocationsJudgeOnlyTheirHostsAndCoverageAddsUpOverNights) {
  const std::string history = dir_ + "/history.sqlite";
  const std::string night1 = dir_ + "/night1";
  write("site/endpoints-2", fmt_rank(0, plan_.hcas[0].guid + 1) + fmt_rank(1, plan_.hcas[1].guid + 1));
  std::vector<std::string> args = run_args(night1, "2s");
  *(std::find(args.begin(), args.end(), "--endpoints") + 1) = dir_ + "/site/endpoints-2";
  args.insert(args.end(), {"--history", history, "--slurm-drain"});
  std::thread inject([&] {
    if (!wait_for_file(night1 + "/counters-before.json", std::chrono::seconds(60))) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    for (const char* hca : {"host001 mlx5_0", "host003 mlx5_0"})
      fabric_->console("PerformanceSet \"" + sim_id(hca) + "\"[1] PortCounters.SymbolErrorCounter=300");
  });
  std::vector<std::string> srun2 = {"srun", "--mpi=pmix", "-N2", "-w", "host001,host002", "--ntasks-per-node=1"};
  srun2.insert(srun2.end(), args.begin(), args.end());
  auto r = fabric_->run(srun2, std::chrono::seconds(120), env());
  inject.join();
  ASSERT_EQ(r.exit_code, 1) << r.err << slurm_->logs();
  auto s = nlohmann::json::parse(read(night1 + "/summary.json"));
  EXPECT_EQ(s["job"]["allocation"]["source"], "ranks") << s["job"].dump(1);
  EXPECT_EQ(s["job"]["allocation"]["hosts"], (nlohmann::json{"host001", "host002"}));
  EXPECT_EQ(s["job"]["allocation"]["outside"], (nlohmann::json{"host003", "host004"}));
  int untested = 0;
  for (const auto& f : s["findings"])
    if (f["kind"] == "untested")
      ++untested;  // which lists host003's cable as untested
    else
      EXPECT_EQ(f.dump().find("host003"), std::string::npos) << f.dump(1);
  EXPECT_EQ(untested, 1) << s["findings"].dump(1);
  EXPECT_EQ(read(night1 + "/drain.txt").rfind("host001\terrors_under_load: ", 0), 0u) << read(night1 + "/drain.txt");
  EXPECT_EQ(slurm_->drained().size(), 1u) << slurm_->shell("sinfo -R");
  slurm_->shell("scontrol update NodeName=host001 State=RESUME");

  // Night 2: the batch step runs on host003 and reads its allocation from Slurm.
  const std::string night2 = dir_ + "/night2";
  const std::string cmd = kIbburn + " run --transport sim --allocation slurm --wiring " + site() +
                          "/wiring.csv --node-name-map " + dir_ + "/site/node-name-map --sim-console " +
                          fabric_->console_path() + " --duration 2s --probes 0 --history " + history + " --out " +
                          night2;
  r = fabric_->run(
      {"sbatch", "--wait", "-N2", "-w", "host003,host004", "--output=" + dir_ + "/night2.log", "--wrap", cmd},
      std::chrono::seconds(180), env());
  const std::string log = read(dir_ + "/night2.log");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << log << slurm_->logs();
  s = nlohmann::json::parse(read(night2 + "/summary.json"));
  EXPECT_EQ(s["verdict"], "pass") << s["findings"].dump(1) << log;
  EXPECT_EQ(s["job"]["allocation"]["source"], "slurm") << s["job"].dump(1);
  EXPECT_EQ(s["job"]["allocation"]["hosts"], (nlohmann::json{"host003", "host004"}));
  ASSERT_EQ(s["endpoints"].size(), 2u) << s["endpoints"].dump(1);
  for (const auto& e : s["endpoints"])
    EXPECT_TRUE(e.dump().find("host003") != std::string::npos || e.dump().find("host004") != std::string::npos)
        << e.dump();
  // The coverage over both nights: each half's host cables carried a full load on its night;
  // the leaf-spine cables on none (each night's hosts shared a leaf).
  const std::string page = read(night2 + "/report.html");
  EXPECT_NE(page.find("Coverage: 2 of 8 cables carried a full load in the latest night, 2 more in an earlier one, 4 "
                      "in none of these nights"),
            std::string::npos)
      << page.substr(page.find("id=\"nights\""), 3000);
  const auto row = page.find(">host001 mlx5_0[1] - ");
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(page.substr(row, 200).find("<td>run 1</td>"), std::string::npos) << page.substr(row, 200);
}

// `ibburn host check --slurm` as slurmd runs a HealthCheckProgram or prolog (SLURMD_NODENAME
// set): a failing check drains the node with its reason, a passing one exits 0 and drains
// nobody, in seconds.
TEST_F(RunSlurm, HostCheckAsHealthCheckDrainsItsNodeWithTheChecksReason) {
  write("sys/class/.keep", "");
  const std::string expect = write("expect.conf", "hcas=1\n");
  const std::vector<std::string> check = {kIbburn,        "host",        "check",  "--slurm",
                                          "--sysfs-root", dir_ + "/sys", "--kmsg", write("kmsg", "")};
  auto e = env();
  e["SLURMD_NODENAME"] = "host002";
  const auto t0 = Clock::now();
  auto r = fabric_->run(check, std::chrono::seconds(30), e);
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(slurm_->drained().empty()) << slurm_->shell("sinfo -R");
  EXPECT_LT(seconds, 5.0);

  e["SLURMD_NODENAME"] = "host003";
  std::vector<std::string> failing = check;
  failing.insert(failing.end(), {"--expect", expect});
  r = fabric_->run(failing, std::chrono::seconds(30), e);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(slurm_->drained(), std::vector<std::string>{"host003|ibburn: host check: 0 HCAs found, expected 1"})
      << r.err;
}

}  // namespace
}  // namespace ibburn
