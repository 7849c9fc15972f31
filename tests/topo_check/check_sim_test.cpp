// `ibburn topo check` end to end on ibsim fabrics: the fabric is cabled from a changed copy of
// the plan (or changed through the ibsim console), then checked live through umad2sim, with
// the node-name-map and with switch names inferred (switches report a generic description).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

namespace ibburn {
namespace {

using testing::SimFabric;
using testing::SimOptions;
using wiring::Tier;

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";

// 2 leaves (6 hosts: leaf02 has free host ports), 2 spines with free ports, 4xHDR.
wiring::FatTreeDesign small_design() {
  wiring::FatTreeSpec s;
  s.tiers = 2;
  s.radix = 8;
  s.hosts = 6;
  s.hcas_per_host = 1;
  s.spines_per_pod = 2;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  return wiring::generate_fat_tree(s);
}

const wiring::FatTreeSwitch& sw(const wiring::FatTreeDesign& d, const std::string& name) {
  for (const auto& s : d.switches)
    if (s.name == name) return s;
  throw std::logic_error("no switch " + name);
}

uint64_t hca_guid(const wiring::FatTreeDesign& d, const std::string& description) {
  for (const auto& h : d.hcas)
    if (h.description == description) return h.guid;
  throw std::logic_error("no HCA " + description);
}

wiring::Cable& cable_at(wiring::Wiring& w, const std::string& node, int port) {
  for (auto& c : w.cables)
    if ((c.a.node == node && c.a.port == port) || (c.b.node == node && c.b.port == port)) return c;
  throw std::logic_error("no cable at " + node);
}

wiring::CableEnd& end_at(wiring::Cable& c, const std::string& node) { return c.a.node == node ? c.a : c.b; }

class TopoCheckSim : public ::testing::Test {
 protected:
  wiring::FatTreeDesign plan_ = small_design();
  wiring::FatTreeDesign cabled_ = plan_;  // what the simulator is cabled as
  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();

  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
  }

  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::string netfile_text() const {
    wiring::NetfileOptions o;
    o.generic_switch_descriptions = true;
    return wiring::to_ibsim_netfile(cabled_, o);
  }

  // Runs `topo check` (live or on snapshots) with the map and with inferred names; both
  // must give the same findings. Returns the kinds counted.
  std::map<std::string, int> check(const SimFabric& fabric, std::vector<std::string> fabrics = {},
                                   int* exit_code = nullptr) {
    std::string plan_csv = write("plan.csv", wiring::to_csv(plan_.wiring));
    std::string map = write("switches.map", wiring::node_name_map(plan_).to_text());
    std::string texts[2];
    std::map<std::string, int> kinds;
    for (int inferred = 0; inferred < 2; ++inferred) {
      std::string out = dir_ + "/findings" + std::to_string(inferred) + ".json";
      std::vector<std::string> argv = {kIbburn, "topo", "check", "--wiring", plan_csv, "--json", out};
      for (const auto& f : fabrics) argv.insert(argv.end(), {"--fabric", f});
      if (!inferred) argv.insert(argv.end(), {"--node-name-map", map});
      auto r = fabric.run(argv);
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.out << r.err;
      if (exit_code) *exit_code = r.exit_code;
      std::ifstream in(out);
      std::stringstream ss;
      ss << in.rdbuf();
      texts[inferred] = ss.str();
      if (inferred) continue;
      auto j = nlohmann::json::parse(texts[0]);
      for (const auto& f : j["findings"]) ++kinds[f["kind"].get<std::string>()];
      summary_ = r.out;
    }
    EXPECT_EQ(texts[1], texts[0]) << "inferred names gave other findings";
    return kinds;
  }

  // Cables the simulator so that leaf01 only reaches spine01 and leaf02 only spine02: two
  // islands, host001's and host005's.
  void split_cabling() {
    for (auto [leaf, keep, other] : {std::tuple{"leaf01", "spine01", "spine02"}, {"leaf02", "spine02", "spine01"}}) {
      int free_port = 5;
      for (auto& c : cabled_.wiring.cables) {
        auto* up = c.a.node == leaf ? &c.b : c.b.node == leaf ? &c.a : nullptr;
        if (up && up->node == other) *up = {keep, free_port++};
      }
    }
  }
  std::string sim_host(const std::string& hca) const {
    return wiring::ibsim_node_id(topo::NodeType::CA, hca_guid(plan_, hca));
  }
  // A snapshot discovered from inside each island.
  std::vector<std::string> island_snapshots(const SimFabric& f) {
    std::vector<std::string> snaps;
    for (const char* host : {"host001 mlx5_0", "host005 mlx5_0"}) {
      std::string snap = dir_ + "/snap-" + std::to_string(snaps.size()) + ".json";
      auto r =
          f.run({kIbburn, "topo", "discover", "-o", snap}, std::chrono::seconds(60), {{"SIM_HOST", sim_host(host)}});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      snaps.push_back(snap);
    }
    return snaps;
  }
  std::string summary_;
};

TEST_F(TopoCheckSim, CleanFabricHasNoFinding) {
  SimFabric f(write("net", netfile_text()));
  int rc = -1;
  EXPECT_EQ(check(f, {}, &rc), (std::map<std::string, int>{})) << summary_;
  EXPECT_EQ(rc, 0);
  EXPECT_NE(summary_.find("topo check: OK"), std::string::npos) << summary_;
}

// `--fabric live` is live discovery, as without --fabric (it used to open a file named
// "live"): an unplugged cable is found either way.
TEST_F(TopoCheckSim, FabricLiveDiscovers) {
  SimFabric f(write("net", netfile_text()));
  f.console("Unlink \"" + wiring::ibsim_node_id(topo::NodeType::Switch, sw(plan_, "leaf01").guid) + "\"[5]");
  f.resweep();
  int rc = -1;
  EXPECT_EQ(check(f, {"live"}, &rc), (std::map<std::string, int>{{"missing", 1}})) << summary_;
  EXPECT_EQ(rc, 1);
}

TEST_F(TopoCheckSim, UnpluggedCableIsMissing) {
  SimFabric f(write("net", netfile_text()));
  auto& leaf = sw(plan_, "leaf01");
  f.console("Unlink \"" + wiring::ibsim_node_id(topo::NodeType::Switch, leaf.guid) + "\"[5]");
  f.resweep();
  int rc = -1;
  EXPECT_EQ(check(f, {}, &rc), (std::map<std::string, int>{{"missing", 1}})) << summary_;
  EXPECT_EQ(rc, 1);
  EXPECT_NE(summary_.find("leaf01[5]"), std::string::npos) << summary_;
}

TEST_F(TopoCheckSim, TwoCablesSwappedOnALeafAreOneSwappedFinding) {
  std::swap(end_at(cable_at(cabled_.wiring, "leaf01", 1), "leaf01").port,
            end_at(cable_at(cabled_.wiring, "leaf01", 2), "leaf01").port);
  SimFabric f(write("net", netfile_text()));
  EXPECT_EQ(check(f), (std::map<std::string, int>{{"swapped", 1}})) << summary_;
  EXPECT_NE(summary_.find("exchange the plugs in leaf01[1] and leaf01[2]"), std::string::npos) << summary_;
}

TEST_F(TopoCheckSim, LeafSpineCableOnAWrongSpineIsMiswired) {
  auto& c = cable_at(cabled_.wiring, "leaf01", 5);
  auto& end = c.a.node == "leaf01" ? c.b : c.a;
  std::string planned_spine = end.node;
  end.node = planned_spine == "spine01" ? "spine02" : "spine01";
  end.port = 7;  // free on every spine of this design
  SimFabric f(write("net", netfile_text()));
  EXPECT_EQ(check(f), (std::map<std::string, int>{{"miswired", 1}})) << summary_;
  EXPECT_NE(summary_.find("found leaf01[5] - " + end.node + "[7]"), std::string::npos) << summary_;
}

TEST_F(TopoCheckSim, LinkAt1xIsDegraded) {
  std::string text = netfile_text();
  // Both ends of leaf02[6] train at 1x: the per-port rate comments of the two port lines.
  auto& c = cable_at(cabled_.wiring, "leaf02", 6);
  std::string spine = c.a.node == "leaf02" ? c.b.node : c.a.node;
  int spine_port = c.a.node == "leaf02" ? c.b.port : c.a.port;
  auto retrain = [&](const std::string& node, int port) {
    std::string id = "\"" + wiring::ibsim_node_id(topo::NodeType::Switch, sw(plan_, node).guid) + "\"";
    size_t rec = text.find("Switch\t");
    while (rec != std::string::npos && text.compare(text.find('"', rec), id.size(), id) != 0)
      rec = text.find("Switch\t", rec + 1);
    ASSERT_NE(rec, std::string::npos) << node;
    size_t line = text.find("\n[" + std::to_string(port) + "]", rec);
    size_t eol = text.find('\n', line + 1);
    size_t rate = text.rfind("4xHDR", eol);
    ASSERT_TRUE(line != std::string::npos && rate > line) << node;
    text.replace(rate, 5, "1xHDR");
  };
  retrain("leaf02", 6);
  retrain(spine, spine_port);
  SimFabric f(write("net", text));
  EXPECT_EQ(check(f), (std::map<std::string, int>{{"degraded", 1}})) << summary_;
  EXPECT_NE(summary_.find("runs at 1xHDR, planned 4xHDR"), std::string::npos) << summary_;
}

TEST_F(TopoCheckSim, HostNotInThePlanIsUnknownNode) {
  std::erase_if(plan_.wiring.cables,
                [](const wiring::Cable& c) { return c.a.node == "host006 mlx5_0" || c.b.node == "host006 mlx5_0"; });
  SimFabric f(write("net", netfile_text()));
  EXPECT_EQ(check(f), (std::map<std::string, int>{{"unknown_node", 1}})) << summary_;
  EXPECT_NE(summary_.find("host006 mlx5_0 (CA"), std::string::npos) << summary_;
}

TEST_F(TopoCheckSim, SplitFabricFromSnapshotsOfEachIsland) {
  split_cabling();
  SimFabric f(write("net", netfile_text()));
  std::vector<std::string> snaps = island_snapshots(f);
  auto kinds = check(f, snaps);
  EXPECT_EQ(kinds["split"], 1) << summary_;
  EXPECT_EQ(kinds.count("unreached"), 0u) << summary_;
  EXPECT_NE(summary_.find("split into 2 disjoint islands"), std::string::npos) << summary_;
  // From one island only, the rest is reported unreached, not ignored.
  auto one = check(f, {snaps[0]});
  EXPECT_EQ(one.count("split"), 0u);
  EXPECT_EQ(one["unreached"], 1) << summary_;
}

// Without opensm every port is LinkUp but stays Initialize: one diagnosis, not a port_down
// per cable. `topo show` says the same.
TEST_F(TopoCheckSim, CleanFabricWithoutSmIsOneNoSmFinding) {
  SimOptions o;
  o.opensm = false;
  SimFabric f(write("net", netfile_text()), o);
  int rc = -1;
  EXPECT_EQ(check(f, {}, &rc), (std::map<std::string, int>{{"no_sm", 1}})) << summary_;
  EXPECT_EQ(rc, 1);
  const std::string cables = std::to_string(plan_.wiring.cables.size());
  EXPECT_NE(summary_.find("the fabric (4 switches, 6 HCAs): " + cables + " of " + cables +
                          " cables are up but not activated"),
            std::string::npos)
      << summary_;
  auto show = f.run({kIbburn, "topo", "show", "live"});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("no active subnet manager: 4 switches, 6 HCAs (e.g. "), std::string::npos) << show.out;
}

// opensm attached in host001's island activates that island only.
TEST_F(TopoCheckSim, SplitFabricWithSmInOneIslandIsSplitAndOneNoSm) {
  split_cabling();
  SimOptions o;
  o.sim_host = sim_host("host001 mlx5_0");
  SimFabric f(write("net", netfile_text()), o);
  int rc = -1;
  auto kinds = check(f, island_snapshots(f), &rc);
  EXPECT_EQ(kinds["split"], 1) << summary_;
  EXPECT_EQ(kinds["no_sm"], 1) << summary_;
  EXPECT_EQ(kinds.count("port_down"), 0u) << summary_;
  EXPECT_EQ(kinds.count("port_not_active"), 0u) << summary_;
  EXPECT_EQ(rc, 1);
  EXPECT_NE(summary_.find("no active subnet manager in an island of the fabric (2 switches, 2 HCAs"), std::string::npos)
      << summary_;
}

// One cable unplugged and plugged back in: the link comes up (Initialize) and, with the SM
// told not to sweep on the simulator's traps, stays there.
TEST_F(TopoCheckSim, CableNotActivatedAfterReplugIsPortNotActive) {
  SimOptions o;
  o.opensm_args = {"-F", write("opensm.conf", "sweep_on_trap FALSE\n")};
  SimFabric f(write("net", netfile_text()), o);
  const std::string leaf = "\"" + wiring::ibsim_node_id(topo::NodeType::Switch, sw(plan_, "leaf01").guid) + "\"";
  f.console("Unlink " + leaf + "[5]");
  f.console("ReLink " + leaf + "[5]");
  int rc = -1;
  EXPECT_EQ(check(f, {}, &rc), (std::map<std::string, int>{{"port_not_active", 1}})) << summary_;
  EXPECT_EQ(rc, 1);
  EXPECT_NE(summary_.find("leaf01[5] Initialize/LinkUp"), std::string::npos) << summary_;
}

}  // namespace
}  // namespace ibburn
