// `ibburn topo check` and `ibburn wiring name-switches` as a site runs them, on fabric files:
// exit codes (0 clean, 1 findings, 2 bad input), the JSON shape, snapshots merged, and the
// inferred node-name-map.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/topo_check/fabric_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "topo/fabric_io.h"
#include "topo/node_name_map.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn {
namespace {

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TopoCheckCli : public ::testing::Test {
 protected:
  ibburn::testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
  wiring::FatTreeDesign design_ = [] {
    wiring::FatTreeSpec s;
    s.tiers = 3, s.radix = 8, s.hosts = 15, s.hcas_per_host = 2;
    s.rate = {topo::Width::X4, topo::Speed::HDR};
    return wiring::generate_fat_tree(s);
  }();
  std::string plan_, map_;

  void SetUp() override {
    plan_ = write("plan.csv", wiring::to_csv(design_.wiring));
    map_ = write("switches.map", wiring::node_name_map(design_).to_text());
  }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name) << text;
    return dir_ + "/" + name;
  }
  std::string netfile(const wiring::FatTreeDesign& d) {
    wiring::NetfileOptions o;
    o.generic_switch_descriptions = true;
    return write("fabric.net", wiring::to_ibsim_netfile(d, o));
  }
  CliRun ibburn(const std::vector<std::string>& args) {
    std::string cmd = ibburn::testing::binary_dir() + "/ibburn";
    for (const auto& a : args) cmd += " '" + a + "'";
    cmd += " >" + dir_ + "/out 2>" + dir_ + "/err";
    int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir_ + "/out"), slurp(dir_ + "/err")};
  }
};

TEST_F(TopoCheckCli, CleanFabricExitsZeroWithEmptyFindings) {
  auto r = ibburn({"topo", "check", "--wiring", plan_, "--fabric", netfile(design_), "--node-name-map", map_, "--json",
                   dir_ + "/f.json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "topo check: OK, no findings\n");
  EXPECT_EQ(nlohmann::json::parse(slurp(dir_ + "/f.json")), nlohmann::json::parse(R"({"findings": []})"));
}

TEST_F(TopoCheckCli, SwappedCablesExitOneWithJsonFinding) {
  wiring::FatTreeDesign cabled = design_;
  auto& w = cabled.wiring.cables;
  std::swap(w[0].a, w[1].a);  // two HCAs' cables exchanged at the HCA end
  auto r = ibburn({"topo", "check", "--wiring", plan_, "--fabric", netfile(cabled), "--json", dir_ + "/f.json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("topo check: 1 finding (1 swapped)\n", 0), 0u) << r.out;
  EXPECT_NE(r.err.find("switch names inferred from the plan"), std::string::npos) << r.err;
  auto j = nlohmann::json::parse(slurp(dir_ + "/f.json"));
  ASSERT_EQ(j["findings"].size(), 1u);
  const auto& f = j["findings"][0];
  EXPECT_EQ(f["kind"], "swapped");
  EXPECT_EQ(f["severity"], "error");
  EXPECT_FALSE(f["message"].get<std::string>().empty());
  ASSERT_EQ(f["ports"].size(), 4u);
  EXPECT_TRUE(f["ports"][0]["node"].is_string());
  EXPECT_TRUE(f["ports"][0]["port"].is_number_integer());
}

TEST_F(TopoCheckCli, BadInputExitsTwoNamingFileAndLine) {
  std::string bad = write("bad.csv", "a_node,a_port,b_node,b_port\nleaf1,x,leaf2,1\n");
  auto r = ibburn({"topo", "check", "--wiring", bad, "--fabric", netfile(design_)});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.csv:2"), std::string::npos) << r.err;
  EXPECT_EQ(ibburn({"topo", "check", "--fabric", netfile(design_)}).exit_code, 2);  // no --wiring
  EXPECT_EQ(ibburn({"topo", "check", "--wiring", plan_, "--fabric", dir_ + "/absent.net"}).exit_code, 2);
}

TEST_F(TopoCheckCli, SnapshotsOfEachIslandAreMergedIntoOneSplit) {
  auto b = testing::build_fabric(testing::split_top_tier(design_), {}, testing::design_guids(design_));
  auto islands = b.fabric.islands();
  ASSERT_EQ(islands.size(), 2u);
  std::vector<std::string> args = {"topo", "check",  "--wiring",      plan_, "--node-name-map",
                                   map_,   "--json", dir_ + "/f.json"};
  for (size_t i = 0; i < islands.size(); ++i) {
    std::string snap = dir_ + "/island" + std::to_string(i) + ".json";
    topo::save_fabric_file(testing::island_snapshot(b.fabric, islands[i]), snap);
    args.insert(args.end(), {"--fabric", snap});
  }
  auto r = ibburn(args);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  size_t splits = 0;
  auto j = nlohmann::json::parse(slurp(dir_ + "/f.json"));
  for (const auto& f : j["findings"])
    if (f["kind"] == "split") {
      ++splits;
      EXPECT_EQ(f["details"]["islands"].size(), 2u);
    }
  EXPECT_EQ(splits, 1u) << r.out;
}

TEST_F(TopoCheckCli, NameSwitchesWritesTheMapWithConfidences) {
  auto r = ibburn(
      {"wiring", "name-switches", "--wiring", plan_, "--fabric", netfile(design_), "-o", dir_ + "/inferred.map"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto inferred = topo::NodeNameMap::load(dir_ + "/inferred.map");
  auto truth = wiring::node_name_map(design_);
  EXPECT_EQ(inferred.to_text(), truth.to_text());
  EXPECT_NE(slurp(dir_ + "/inferred.map").find("# confidence 1.00"), std::string::npos);
}

}  // namespace
}  // namespace ibburn
