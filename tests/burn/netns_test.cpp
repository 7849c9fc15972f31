// Four "hosts" as network namespaces on one bridge, one rank in each (--netns), and a tc rate
// limit on host 1's link: host 1's flows must be flagged slow and everything else pass.
// The addresses are private and live only inside the namespaces this test creates.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <filesystem>
#include <set>

#include "burn_run.h"
#include "common/file_io.h"
#include "planner/planner.h"
#include "tests/support/sim_fabric.h"
#include "topo/fabric_io.h"

using namespace burntest;
using nlohmann::json;

namespace {

int sh(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()); }

class BurnNetns : public MpiRunTest {
 protected:
  void SetUp() override {
    MpiRunTest::SetUp();
    if (IsSkipped()) return;
    if (geteuid() != 0) GTEST_SKIP() << "needs root for network namespaces";
    if (sh("command -v ip && command -v tc") != 0) GTEST_SKIP() << "ip/tc not installed";
    prefix_ = "ibbt" + std::to_string(getpid());
    subnet_ = "10.231." + std::to_string(getpid() % 250) + ".";
    if (sh("ip netns add " + ns("br")) != 0) GTEST_SKIP() << "no network namespace support";
    created_ = true;
    ASSERT_EQ(sh("ip -n " + ns("br") + " link add br0 type bridge && ip -n " + ns("br") + " link set br0 up"), 0);
    for (int i = 0; i < 4; ++i) {
      const std::string n = ns(std::to_string(i));
      ASSERT_EQ(sh("ip netns add " + n), 0);
      ASSERT_EQ(sh("ip -n " + n + " link add eth0 type veth peer name p" + std::to_string(i) + " netns " + ns("br")),
                0);
      ASSERT_EQ(sh("ip -n " + n + " addr add " + addr(i) + "/24 dev eth0 && ip -n " + n +
                   " link set eth0 up && ip -n " + n + " link set lo up"),
                0);
      ASSERT_EQ(sh("ip -n " + ns("br") + " link set p" + std::to_string(i) + " master br0 && ip -n " + ns("br") +
                   " link set p" + std::to_string(i) + " up"),
                0);
    }
    // Host 1's link, both ways: its own egress, and the bridge's egress towards it.
    const std::string tbf = " root tbf rate 20mbit burst 32kbit latency 100ms";
    ASSERT_EQ(sh("ip netns exec " + ns("1") + " tc qdisc add dev eth0" + tbf), 0);
    ASSERT_EQ(sh("ip netns exec " + ns("br") + " tc qdisc add dev p1" + tbf), 0);
  }
  void TearDown() override {
    if (!created_) return;
    for (const char* n : {"0", "1", "2", "3", "br"}) sh("ip netns del " + ns(n));
  }
  std::string ns(const std::string& s) const { return prefix_ + s; }
  // The four namespaces as host001..host004 of a 2-leaf tree (dir_/tree.*), and the ranks'
  // HCA ports for --endpoints (dir_/endpoints): their TCP transport reports none.
  bool write_tree() const {
    if (sh(ibburn_path() + " wiring gen fat-tree --tiers 2 --radix 4 --hosts 4 --hcas-per-host 1 --rate 4xHDR -o " +
           dir_ + "/tree") != 0)
      return false;
    auto fabric = ibburn::topo::load_fabric_file(dir_ + "/tree.net");
    std::string endpoints;
    int rank = 0;
    for (auto p : ibburn::planner::all_hca_ports(fabric)) {
      char line[64];
      std::snprintf(line, sizeof line, "%d 0x%016llx\n", rank++, static_cast<unsigned long long>(fabric.port(p).guid));
      endpoints += line;
    }
    ibburn::write_file_atomic(dir_ + "/endpoints", endpoints);
    return true;
  }
  std::string addr(int i) const { return subnet_ + std::to_string(i + 1); }

  std::string prefix_, subnet_;
  bool created_ = false;
};

}  // namespace

TEST_F(BurnNetns, RateLimitedHostIsFlaggedSlowOthersPass) {
  std::string args = "--pattern one-to-one --duration 2s --streams 2 --expect-gbps 0.2 --quiet --netns " + ns("0") +
                     "," + ns("1") + "," + ns("2") + "," + ns("3") + " --bind " + addr(0) + "," + addr(1) + "," +
                     addr(2) + "," + addr(3);
  int rc = run_burn(4, args);
  EXPECT_EQ(rc, 1) << log();
  json s = read_json(dir_ + "/summary.json");
  const auto& e = s.at("endpoints");
  ASSERT_EQ(e.size(), 4u) << s.dump(2);
  EXPECT_EQ(e[1].at("verdict"), "slow") << s.dump(2);
  EXPECT_EQ(e[1].at("endpoint"), addr(1));
  for (int r : {0, 2, 3}) EXPECT_EQ(e[r].at("verdict"), "pass") << s.dump(2);
  for (const auto& f : s.at("flows")) {
    bool touches_1 = f.at("from") == 1 || f.at("to") == 1;
    EXPECT_EQ(f.at("verdict"), touches_1 ? "slow" : "pass") << f.dump();
  }
  EXPECT_TRUE(s.at("lost_ranks").empty());
}

TEST_F(BurnNetns, SummaryNamesTheSlowHostsCableAfterAProbeStage) {
  // The four namespaces stand for host001..host004 of a 2-leaf tree (TCP over IPoIB, say):
  // --endpoints gives each rank its HCA port. With `pairs`, host 1's one slow flow
  // implicates its whole path, so rank 0 runs a probe stage, then names host002's cable.
  ASSERT_TRUE(write_tree());
  std::string args = "--pattern pairs --duration 2s --streams 2 --expect-gbps 0.2 --quiet --netns " + ns("0") + "," +
                     ns("1") + "," + ns("2") + "," + ns("3") + " --bind " + addr(0) + "," + addr(1) + "," + addr(2) +
                     "," + addr(3) + " --fabric " + dir_ + "/tree.net --routing adaptive --endpoints " + dir_ +
                     "/endpoints";
  int rc = run_burn(4, args);
  EXPECT_EQ(rc, 1) << log();
  std::vector<std::string> stage_names;
  for (auto& l : read_jsonl(dir_ + "/results.jsonl"))
    if (l.at("type") == "stage") stage_names.push_back(l.at("name"));
  ASSERT_GE(stage_names.size(), 2u) << log();
  EXPECT_EQ(stage_names[1].rfind("probe", 0), 0u) << stage_names[1];
  json s = read_json(dir_ + "/summary.json");
  ASSERT_EQ(s.at("suspects").size(), 2u) << s.at("suspects").dump(1);  // host002's cable, both ways
  for (const auto& x : s.at("suspects")) {
    EXPECT_GE(x.at("confidence").get<double>(), 0.75) << x.dump();
    const std::string ends = x.at("from").get<std::string>() + " " + x.at("to").get<std::string>();
    EXPECT_NE(ends.find("host002 mlx5_0[1]"), std::string::npos) << ends;
    EXPECT_NE(ends.find("leaf01[2]"), std::string::npos) << ends;
  }
  EXPECT_NE(log().find("suspect_cable"), std::string::npos) << log();
}

// `ibburn run` end to end under mpirun: the four namespaces stand for host001..host004 of a
// 2-leaf tree that also runs in ibsim + opensm, and rank 0 discovers it, checks it against
// its wiring list, snapshots and sweeps its counters through umad2sim, plans over opensm's
// routes for the ranks' HCA ports (--endpoints: TCP reports none) and burns. Host 1's link
// is rate limited: the job names host002's cable and puts host002 in drain.txt. The bytes
// cross veth, not the simulated switches, so coverage from counters is off.
TEST_F(BurnNetns, RunJobChecksSweepsPlansBurnsAndDrainsTheSlowHost) {
  if (!ibburn::testing::SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
  ASSERT_TRUE(write_tree());
  ibburn::testing::SimOptions so;
  so.opensm_args = {"-R", "ftree"};
  ibburn::testing::SimFabric sim(dir_ + "/tree.net", so);
  std::string env;
  for (const auto& [k, v] : sim.env()) env += k + "=" + v + " ";
  // The preflight (one rank per host, before the ranks enter their namespaces) attaches
  // umad2sim to ibsim, whose socket lives in this namespace; --force: this machine has no HCA.
  // From the test directory: umad2sim keeps its stand-in sysfs in the working directory.
  const std::string cmd = "cd " + dir_ + " && exec env " + env + ibburn_path() + " run --out " + dir_ +
                          "/job --wiring " + dir_ + "/tree.csv --node-name-map " + dir_ +
                          "/tree.node-name-map --endpoints " + dir_ +
                          "/endpoints --coverage 0 --duration 2s --streams 2 --expect-gbps 0.2 --quiet --force " +
                          "--netns " + ns("0") + "," + ns("1") + "," + ns("2") + "," + ns("3") + " --bind " + addr(0) +
                          "," + addr(1) + "," + addr(2) + "," + addr(3);
  const int rc = wait_mpirun(start_mpirun(4, cmd, {}, 180));
  EXPECT_EQ(rc, 1) << log();
  json s = read_json(dir_ + "/job/summary.json");
  EXPECT_EQ(s.at("job").at("outcome"), "complete") << s.dump(1);
  std::set<std::string> steps;
  for (const auto& st : s.at("job").at("steps")) steps.insert(st.at("name").get<std::string>());
  for (const char* step : {"topo", "counters", "plan", "burn"}) EXPECT_TRUE(steps.count(step)) << step;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/job/counters-stage-1.json")) << log();
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/job/report.html")) << log();
  const std::string drain = read_text(dir_ + "/job/drain.txt");
  EXPECT_NE(drain.find("host002\t"), std::string::npos) << drain << log();
  EXPECT_NE(read_text(dir_ + "/job/cables.csv").find("\"host002 mlx5_0\",1,\"leaf01\",2"), std::string::npos)
      << read_text(dir_ + "/job/cables.csv");
}
