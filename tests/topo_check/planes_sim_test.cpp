// Planes end to end on ibsim: one simulator and one opensm per plane, each with its own
// IBSIM_SOCKNAME and subnet_prefix (opensm -F). umad2sim shows a process one simulator (its
// IBSIM_SOCKNAME), so each plane is discovered in its own process, as a site does from one
// host per plane (`ibburn topo discover -o planeK.json`), and `topo check` gets one --fabric
// per plane.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
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

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";
constexpr int kPlanes = 4;

// 4 planes of 6 hosts' HCAs: per plane 2 leaves (leaf02's ports 3 and 4 free), 2 spines.
wiring::FatTreeDesign design() {
  wiring::FatTreeSpec s;
  s.tiers = 2;
  s.radix = 8;
  s.hosts = 6;
  s.hcas_per_host = kPlanes;
  s.planes = kPlanes;
  s.spines_per_pod = 2;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  return wiring::generate_fat_tree(s);
}

// Removes a node and its cables from a plane's design (a switch that is not there).
void remove_node(wiring::FatTreeDesign& d, const std::string& name) {
  std::erase_if(d.switches, [&](const auto& s) { return s.name == name; });
  std::erase_if(d.wiring.cables, [&](const auto& c) { return c.a.node == name || c.b.node == name; });
}

class PlanesSim : public ::testing::Test {
 protected:
  wiring::FatTreeDesign plan_ = design();
  std::vector<wiring::FatTreeDesign> cabled_;  // what each plane's simulator is cabled as
  std::vector<std::unique_ptr<SimFabric>> sims_;
  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();

  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
    for (int k = 1; k <= kPlanes; ++k) cabled_.push_back(wiring::plane_design(plan_, k));
  }

  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // Plane k's simulator and SM; prefix[k-1] is its SM's subnet_prefix.
  void start(std::vector<uint64_t> prefix = {}) {
    for (int k = 1; k <= kPlanes; ++k) {
      const uint64_t p = prefix.empty() ? 0xfe80000000000000ULL + k : prefix[k - 1];
      SimOptions o;
      o.opensm_args = {"-F", write("opensm" + std::to_string(k) + ".conf", fmt_prefix(p))};
      sims_.push_back(std::make_unique<SimFabric>(
          write("plane" + std::to_string(k) + ".net", wiring::to_ibsim_netfile(cabled_[k - 1])), o));
    }
  }

  static std::string fmt_prefix(uint64_t p) {
    std::ostringstream s;
    s << "subnet_prefix 0x" << std::hex << p << "\n";
    return s.str();
  }

  // Each plane discovered in its own process, through its own simulator.
  std::vector<std::string> discover() {
    std::vector<std::string> snaps;
    for (int k = 1; k <= kPlanes; ++k) {
      const std::string snap = dir_ + "/plane" + std::to_string(k) + ".json";
      auto r = sims_[k - 1]->run({kIbburn, "topo", "discover", "-o", snap});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      snaps.push_back(snap);
    }
    return snaps;
  }

  // `topo check` on the planes' snapshots: the kinds found, the findings kept in findings_.
  std::map<std::string, int> check(const std::vector<std::string>& snaps, int expect_exit) {
    const std::string plan = write("plan.csv", wiring::to_csv(plan_));
    const std::string map = write("switches.map", wiring::node_name_map(plan_).to_text());
    const std::string out = dir_ + "/findings.json";
    std::vector<std::string> argv = {kIbburn, "topo", "check", "--wiring", plan, "--node-name-map", map, "--json", out};
    for (const auto& s : snaps) argv.insert(argv.end(), {"--fabric", s});
    auto r = sims_.front()->run(argv);
    EXPECT_EQ(r.exit_code, expect_exit) << r.out << r.err;
    std::ifstream in(out);
    std::stringstream ss;
    ss << in.rdbuf();
    findings_ = nlohmann::json::parse(ss.str())["findings"];
    summary_ = r.out;
    std::map<std::string, int> kinds;
    for (const auto& f : findings_) ++kinds[f["kind"].get<std::string>()];
    return kinds;
  }

  const nlohmann::json& finding(const std::string& kind) const {
    for (const auto& f : findings_)
      if (f["kind"] == kind) return f;
    throw std::logic_error("no " + kind + " finding in " + findings_.dump(1));
  }

  nlohmann::json findings_;
  std::string summary_;
};

TEST_F(PlanesSim, FourCleanPlanesPassAndEachSnapshotKnowsItsSubnet) {
  start();
  const auto snaps = discover();
  EXPECT_EQ(check(snaps, 0), (std::map<std::string, int>{})) << findings_.dump(1);
  std::ifstream in(snaps[2]);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto subnet = nlohmann::json::parse(ss.str())["subnets"][0];
  EXPECT_EQ(subnet["prefix"], "0xfe80000000000003");
  EXPECT_TRUE(subnet["sm_master"].get<bool>());
  EXPECT_EQ(subnet["source"], "live");
}

// One job over the four planes' snapshots: the plan's stages load every cable of every plane
// (no not_exercised), flows within their plane (the fluid burn routes them on the model).
TEST_F(PlanesSim, OneRunBurnsEveryPlaneInTheSameStages) {
  start();
  const auto snaps = discover();
  const std::string plan = write("plan.csv", wiring::to_csv(plan_));
  const std::string out = dir_ + "/run";
  std::vector<std::string> argv = {kIbburn,    "run",        "--transport", "sim",     "--wiring", plan, "--routing",
                                   "adaptive", "--duration", "1s",          "--quiet", "--out",    out};
  for (const auto& s : snaps) argv.insert(argv.end(), {"--fabric", s});
  auto r = sims_.front()->run(argv, std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(out + "/summary.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const auto summary = nlohmann::json::parse(ss.str());
  EXPECT_EQ(summary["findings"], nlohmann::json::array()) << summary["findings"].dump(1);
  // Every HCA of every plane sends in each stage, always to an HCA of its own plane (mlx5_k).
  std::map<int, std::string> device;
  for (const auto& e : summary["endpoints"]) device[e["rank"].get<int>()] = e["endpoint"].get<std::string>();
  ASSERT_EQ(device.size(), 24u);
  std::map<int, size_t> per_stage;
  for (const auto& f : summary["flows"]) {
    ++per_stage[f["stage"].get<int>()];
    EXPECT_EQ(device.at(f["from"].get<int>()), device.at(f["to"].get<int>())) << f.dump();
  }
  for (const auto& [stage, flows] : per_stage) EXPECT_EQ(flows, 24u) << "stage " << stage;
}

TEST_F(PlanesSim, AnHcaCabledIntoAnotherPlaneIsOneCrossPlaneFinding) {
  // host002's mlx5_2 (plane 3, on plane3-leaf01[2]) is plugged into plane 4's leaf02[3].
  auto& p3 = cabled_[2];
  auto& p4 = cabled_[3];
  auto it =
      std::find_if(p3.hcas.begin(), p3.hcas.end(), [](const auto& h) { return h.description == "host002 mlx5_2"; });
  ASSERT_NE(it, p3.hcas.end());
  p4.hcas.push_back(*it);
  p3.hcas.erase(it);
  std::erase_if(p3.wiring.cables, [](const auto& c) { return c.a.node == "host002 mlx5_2"; });
  wiring::Cable moved;
  moved.a = {"host002 mlx5_2", 1};
  moved.b = {"plane4-leaf02", 3};
  moved.rate = plan_.spec.rate;
  p4.wiring.cables.push_back(moved);
  start();
  EXPECT_EQ(check(discover(), 1), (std::map<std::string, int>{{"cross_plane", 1}})) << findings_.dump(1);
  EXPECT_EQ(finding("cross_plane")["message"],
            "host002 mlx5_2[1] is cabled into plane 4, on plane4-leaf02[3]; the design puts it in plane 3, on "
            "plane3-leaf01[2]");
}

TEST_F(PlanesSim, APlaneWithASpineUnlinkedIsOnePlaneFinding) {
  remove_node(cabled_[1], "plane2-spine01");
  start();
  EXPECT_EQ(check(discover(), 1), (std::map<std::string, int>{{"missing_node", 1}, {"plane_asymmetric", 1}}))
      << findings_.dump(1);
  const auto& f = finding("plane_asymmetric");
  EXPECT_EQ(f["details"]["plane"], 2);
  EXPECT_DOUBLE_EQ(f["details"]["bandwidth_fraction"].get<double>(), 0.5);
}

TEST_F(PlanesSim, TwoPlanesWithOneSubnetPrefixAreAnError) {
  start({0xfe80000000000001ULL, 0xfe80000000000000ULL, 0xfe80000000000003ULL, 0xfe80000000000000ULL});
  EXPECT_EQ(check(discover(), 1), (std::map<std::string, int>{{"plane_prefix", 1}})) << findings_.dump(1);
  EXPECT_EQ(finding("plane_prefix")["details"]["planes"], nlohmann::json::array({2, 4}));
}

TEST_F(PlanesSim, APlaneWhoseSmDiedIsNoSmNamingThePlane) {
  start();
  sims_[2]->kill_sm();
  EXPECT_EQ(check(discover(), 1), (std::map<std::string, int>{{"no_sm", 1}})) << findings_.dump(1);
  const auto& f = finding("no_sm");
  EXPECT_EQ(f["details"]["plane"], 3);
  EXPECT_NE(f["message"].get<std::string>().find("plane 3: no master subnet manager"), std::string::npos)
      << f["message"];
}

}  // namespace
}  // namespace ibburn
