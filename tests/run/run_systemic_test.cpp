// `ibburn run --transport sim` on the field notes' design as files (no ibsim needed): a cause
// wider than cables is one finding and drains nobody; the drain guard holds when per-host
// findings would drain more than --max-drain.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

namespace ibburn {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RunSystemic : public ::testing::Test {
 protected:
  ibburn::testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
  const std::string out_ = dir_ + "/run";

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name) << text;
    return dir_ + "/" + name;
  }

  // The job over `design`'s netfile (what the fabric trains) against `plan`; its exit code.
  int run(const wiring::FatTreeDesign& design, const wiring::Wiring& plan, const std::vector<std::string>& extra = {}) {
    std::string cmd =
        ibburn::testing::binary_dir() + "/ibburn run --transport sim --routing adaptive --duration 1ms --quiet";
    cmd += " --fabric '" + write("design.net", wiring::to_ibsim_netfile(design)) + "'";
    cmd += " --node-name-map '" + write("design.map", wiring::node_name_map(design).to_text()) + "'";
    cmd += " --wiring '" + write("plan.csv", wiring::to_csv(plan)) + "' --out '" + out_ + "'";
    for (const auto& a : extra) cmd += " '" + a + "'";
    cmd += " >" + dir_ + "/stdout 2>" + dir_ + "/stderr";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  nlohmann::json findings() const { return nlohmann::json::parse(slurp(out_ + "/summary.json"))["findings"]; }

  std::map<std::string, int> kinds() const {
    std::map<std::string, int> k;
    for (const auto& f : findings()) ++k[f["kind"].get<std::string>()];
    return k;
  }
};

wiring::FatTreeDesign field_notes(topo::Speed speed) {
  wiring::FatTreeSpec s = *wiring::fat_tree_preset("field-notes");
  s.rate = {topo::Width::X4, speed};
  return wiring::generate_fat_tree(s);
}

// The plan says 4xNDR; the netfile trains 4xHDR (Debian's ibsim knows no NDR, so the generator
// writes HDR): all 12,280 cables are below the plan. Before: 12,280 degraded findings and all
// 511 hosts in drain.txt.
TEST_F(RunSystemic, FabricWideRateIsOneFindingAndDrainsNobody) {
  const auto design = field_notes(topo::Speed::NDR);
  ASSERT_EQ(run(design, design.wiring), 1) << slurp(dir_ + "/stderr");
  EXPECT_EQ(kinds(), (std::map<std::string, int>{{"systemic", 1}})) << findings().dump(1).substr(0, 2000);
  const auto f = findings()[0];
  EXPECT_EQ(f["details"]["scope"]["type"], "fabric");
  EXPECT_EQ(f["details"]["count"], 12280);
  EXPECT_EQ(f["message"].get<std::string>().rfind(
                "the fabric: all 12,280 cables run at 4xHDR, the plan says 4xNDR: one cause for the whole fabric", 0),
            0u)
      << f["message"];
  EXPECT_EQ(slurp(out_ + "/drain.txt"), "");
  EXPECT_EQ(slurp(out_ + "/cables.csv"), "a_node,a_port,b_node,b_port,cable,action,cost,evidence,a_part,b_part\n");
  // topo.json holds the topo check's findings, grouped the same way.
  EXPECT_EQ(nlohmann::json::parse(slurp(out_ + "/topo.json"))["findings"].size(), 1u);
}

// Everything trains at 4xHDR as planned, except that the plan says 4xNDR for rail mlx5_3.
TEST_F(RunSystemic, OneRailIsOneFindingAndDrainsNobody) {
  const auto design = field_notes(topo::Speed::HDR);
  wiring::Wiring plan = design.wiring;
  size_t rail = 0;
  for (auto& c : plan.cables)
    if (c.a.node.ends_with(" mlx5_3") || c.b.node.ends_with(" mlx5_3")) {
      c.rate = topo::LinkRate{topo::Width::X4, topo::Speed::NDR};
      ++rail;
    }
  ASSERT_EQ(rail, 511u);
  ASSERT_EQ(run(design, plan), 1) << slurp(dir_ + "/stderr");
  EXPECT_EQ(kinds(), (std::map<std::string, int>{{"systemic", 1}})) << findings().dump(1).substr(0, 2000);
  const auto f = findings()[0];
  EXPECT_EQ(f["details"]["scope"]["type"], "rail");
  EXPECT_EQ(f["details"]["scope"]["name"], "mlx5_3");
  EXPECT_EQ(f["message"].get<std::string>().rfind(
                "rail mlx5_3: all 511 HCA cables run at 4xHDR, the plan says 4xNDR: one cause for the rail", 0),
            0u)
      << f["message"];
  EXPECT_EQ(slurp(out_ + "/drain.txt"), "");
}

// Three HCA cables below the plan are three faults, each draining its host: past --max-drain 2
// nobody is drained and one finding says why.
TEST_F(RunSystemic, DrainGuardHoldsPastMaxDrain) {
  wiring::FatTreeSpec s;
  s.tiers = 2, s.radix = 8, s.hosts = 8, s.hcas_per_host = 1, s.spines_per_pod = 2;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  const auto design = wiring::generate_fat_tree(s);
  wiring::Wiring plan = design.wiring;
  int slow = 0;
  for (auto& c : plan.cables)
    if (slow < 3 && (c.a.node.rfind("host", 0) == 0 || c.b.node.rfind("host", 0) == 0))
      c.rate = topo::LinkRate{topo::Width::X4, topo::Speed::NDR}, ++slow;
  ASSERT_EQ(run(design, plan, {"--max-drain", "3"}), 1) << slurp(dir_ + "/stderr");
  EXPECT_EQ(kinds(), (std::map<std::string, int>{{"degraded", 3}}));
  const std::string drained = slurp(out_ + "/drain.txt");
  EXPECT_EQ(std::count(drained.begin(), drained.end(), '\n'), 3) << drained;

  ASSERT_EQ(run(design, plan, {"--max-drain", "2"}), 1) << slurp(dir_ + "/stderr");
  EXPECT_EQ(kinds(), (std::map<std::string, int>{{"degraded", 3}, {"drain_limit", 1}}));
  const std::string drain = slurp(out_ + "/drain.txt");
  EXPECT_EQ(drain.rfind("# not drained: 3 of the job's 8 hosts would be drained, more than --max-drain allows (2)", 0),
            0u)
      << drain;
  EXPECT_EQ(drain.find("\nhost"), std::string::npos) << drain;
  EXPECT_NE(drain.find("\n# host00"), std::string::npos) << drain;

  EXPECT_EQ(run(design, plan, {"--max-drain", "5x"}), 2);
  EXPECT_NE(slurp(dir_ + "/stderr").find("--max-drain: '5x' is not a count of hosts"), std::string::npos)
      << slurp(dir_ + "/stderr");
}

}  // namespace
}  // namespace ibburn
