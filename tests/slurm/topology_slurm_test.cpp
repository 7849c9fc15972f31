// `ibburn wiring slurm-topology` against a real slurmctld (tests/support/slurm_cluster.h): its
// output as the cluster's topology.conf under TopologyPlugin=topology/tree, and `scontrol show
// topology` listing the switches and nodes as written, by Slurm's node names (one through
// --slurm-node-map), each node under one leaf. Skips, saying why, where Slurm cannot start.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "common/file_io.h"
#include "tests/support/slurm_cluster.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

namespace ibburn {
namespace {

using testing::SlurmCluster;

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";

// KEY=VALUE words of topology.conf or of `scontrol show topology`, by SwitchName.
std::map<std::string, std::map<std::string, std::string>> switches(const std::string& text) {
  std::map<std::string, std::map<std::string, std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::map<std::string, std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;)
      if (const size_t eq = w.find('='); eq != std::string::npos) words[w.substr(0, eq)] = w.substr(eq + 1);
    out[words["SwitchName"]] = words;
  }
  return out;
}

class SlurmTopologySlurm : public ::testing::Test {
 protected:
  // 2 tiers, 4 hosts x 2 rails: each host is cabled to two leaves (rail 0's and rail 1's).
  wiring::FatTreeDesign plan_ = [] {
    wiring::FatTreeSpec s;
    s.tiers = 2;
    s.radix = 4;
    s.hosts = 4;
    s.hcas_per_host = 2;
    return wiring::generate_fat_tree(s);
  }();
  ibburn::testing::TempDir tmp_;
  std::unique_ptr<SlurmCluster> slurm_;
  std::string topology_conf_;

  void SetUp() override {
    // host004 is cl1-host004 in Slurm: a site prefix, which only the map tells.
    slurm_ = std::make_unique<SlurmCluster>(std::vector<std::string>{"host001", "host002", "host003", "cl1-host004"});
    if (!slurm_->unavailable().empty()) GTEST_SKIP() << "no Slurm here: " << slurm_->unavailable();
    topology_conf_ = std::filesystem::path(slurm_->conf()).parent_path() / "topology.conf";
    write("plan.csv", wiring::to_csv(plan_.wiring));
  }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(tmp_.file(name)) << text;
    return tmp_.file(name);
  }

  // `ibburn wiring slurm-topology ARGS -o topology.conf`: its stdout and stderr, and its exit.
  // `env` goes before the command (a later SLURM_CONF= wins over the cluster's).
  std::pair<int, std::string> slurm_topology(const std::string& args, const std::string& env = "") const {
    const std::string out =
        slurm_->shell(env + " " + kIbburn + " wiring slurm-topology --wiring " + tmp_.file("plan.csv") + " " + args +
                      " -o " + topology_conf_ + " 2>&1; echo exit=$?");
    const size_t at = out.rfind("exit=");
    return {std::stoi(out.substr(at + 5)), out.substr(0, at)};
  }

  // A hostlist as Slurm expands it.
  std::set<std::string> hostnames(const std::string& list) const {
    std::set<std::string> names;
    std::istringstream in(slurm_->shell("scontrol show hostnames '" + list + "'"));
    for (std::string n; in >> n;) names.insert(n);
    return names;
  }

  // Every switch written is in `scontrol show topology`, with the same nodes (leaves) or
  // child switches (above), as Slurm expands them; and Slurm has no other switch.
  void expect_slurm_shows_as_written() const {
    const std::string shown = slurm_->shell("scontrol show topology");
    const auto written = switches(read_file(topology_conf_));
    const auto slurm = switches(shown);
    ASSERT_FALSE(written.empty()) << read_file(topology_conf_);
    EXPECT_EQ(slurm.size(), written.size()) << shown << read_file(topology_conf_);
    for (const auto& [name, words] : written) {
      auto it = slurm.find(name);
      ASSERT_NE(it, slurm.end()) << name << " not in\n" << shown;
      if (words.count("Nodes")) {
        EXPECT_EQ(it->second.at("Level"), "0") << shown;
        EXPECT_EQ(hostnames(it->second.at("Nodes")), hostnames(words.at("Nodes"))) << name << "\n" << shown;
      } else {
        ASSERT_TRUE(it->second.count("Switches")) << name << "\n" << shown;
        EXPECT_EQ(hostnames(it->second.at("Switches")), hostnames(words.at("Switches"))) << name << "\n" << shown;
      }
    }
  }
};

TEST_F(SlurmTopologySlurm, SlurmShowsTheSwitchesAndNodesAsWrittenEachNodeUnderOneLeaf) {
  const auto [rc, out] = slurm_topology("--slurm-node-map " + write("slurm.map", "host004 cl1-host004\n"));
  ASSERT_EQ(rc, 0) << out;
  std::ofstream(slurm_->conf(), std::ios::app) << "TopologyPlugin=topology/tree\n";
  slurm_->restart_controller();
  expect_slurm_shows_as_written();
  // Each Slurm node under exactly one leaf, by its Slurm name.
  std::multiset<std::string> on_leaves;
  for (const auto& [name, words] : switches(read_file(topology_conf_)))
    if (words.count("Nodes"))
      for (const auto& n : hostnames(words.at("Nodes"))) on_leaves.insert(n);
  EXPECT_EQ(on_leaves, (std::multiset<std::string>{"cl1-host004", "host001", "host002", "host003"}))
      << read_file(topology_conf_);
  const std::string log =
      read_file((std::filesystem::path(slurm_->conf()).parent_path() / "log/slurmctld.log").string());
  EXPECT_EQ(log.find("Multiple leaf switches"), std::string::npos) << log;
  EXPECT_EQ(log.find("Invalid hostnames"), std::string::npos) << log;

  // Without the map host004 has no Slurm node: told, left out, exit 1; `scontrol
  // reconfigure` takes the new file.
  const auto [rc2, out2] = slurm_topology("");
  EXPECT_EQ(rc2, 1) << out2;
  EXPECT_NE(out2.find("ibburn: host host004 has no Slurm node"), std::string::npos) << out2;
  slurm_->shell("scontrol reconfigure");
  expect_slurm_shows_as_written();
  EXPECT_EQ(slurm_->shell("scontrol show topology").find("cl1-host004"), std::string::npos)
      << slurm_->shell("scontrol show topology");
}

// The fabric's own cables (its switches generic, named from the plan) give the plan's lines.
TEST_F(SlurmTopologySlurm, AFabricWithGenericSwitchesGivesThePlansLines) {
  const std::string map = write("slurm.map", "host004 cl1-host004\n");
  ASSERT_EQ(slurm_topology("--slurm-node-map " + map).first, 0);
  const std::string from_plan = read_file(topology_conf_);
  const std::string net = write("fabric.net", wiring::to_ibsim_netfile(plan_, {.generic_switch_descriptions = true}));
  const auto [rc, out] = slurm_topology("--fabric " + net + " --slurm-node-map " + map);
  ASSERT_EQ(rc, 0) << out;
  const std::string from_fabric = read_file(topology_conf_);
  // All but the header line, which names the source.
  EXPECT_EQ(from_fabric.substr(from_fabric.find('\n')), from_plan.substr(from_plan.find('\n')));
  EXPECT_NE(from_fabric.find("SwitchName=leaf01 Nodes=host[001-002]\n"), std::string::npos) << from_fabric;
}

TEST_F(SlurmTopologySlurm, AMapLineNamingAnUncabledHostIsExit2WithItsLine) {
  const std::string map = write("slurm.map", "host004 cl1-host004\nhost009 cl1-host009\n");
  const auto [rc, out] = slurm_topology("--slurm-node-map " + map);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find(map + ":2: host host009 is not in the fabric"), std::string::npos) << out;
}

// At acceptance topology.conf is written before slurmctld runs: scontrol is installed and
// configured, but no controller answers (here: the cluster's slurm.conf with the controller's
// port moved to one where nothing listens).
TEST_F(SlurmTopologySlurm, WithoutAControllerTheHostsNamesAreWrittenUncheckedWithAWarning) {
  std::string conf = read_file(slurm_->conf());
  const size_t at = conf.find("SlurmctldPort=");
  ASSERT_NE(at, std::string::npos) << conf;
  conf.replace(at, conf.find('\n', at) - at, "SlurmctldPort=1");
  const std::string env = "SLURM_CONF=" + write("offline.conf", conf);
  const std::string map = write("slurm.map", "host004 cl1-host004\n");

  auto [rc, out] = slurm_topology("--slurm-node-map " + map, env);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("not checked against Slurm (slurm-topology: scontrol show node failed"), std::string::npos) << out;
  EXPECT_NE(out.find("--check-slurm once slurmctld is up"), std::string::npos) << out;
  std::string written = read_file(topology_conf_);
  EXPECT_NE(written.find("# node names not checked against Slurm"), std::string::npos) << written;
  // The map's name where it gives one, the host's own elsewhere: what Slurm gives once up.
  const std::string offline = written.substr(written.find("\nSwitchName"));
  ASSERT_EQ(slurm_topology("--slurm-node-map " + map).first, 0);
  written = read_file(topology_conf_);
  EXPECT_EQ(written.find("not checked"), std::string::npos) << written;
  EXPECT_EQ(offline, written.substr(written.find("\nSwitchName")));
  EXPECT_NE(offline.find("cl1-host004"), std::string::npos) << offline;

  // Asked to check, it cannot: exit 3, nothing written over the last file.
  std::tie(rc, out) = slurm_topology("--slurm-node-map " + map + " --check-slurm", env);
  EXPECT_EQ(rc, 3) << out;
  EXPECT_NE(out.find("scontrol show node failed"), std::string::npos) << out;
  EXPECT_EQ(read_file(topology_conf_), written);
}

}  // namespace
}  // namespace ibburn
