// The planner against the routes opensm really installs: discover the simulated fabric,
// read every switch's forwarding table, plan, and check the coverage proof independently of
// the planner (every cable direction has a stage; no stage asks a cable for more than 100%).
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn {
namespace {

class PlanOnIbsim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::SimFabric::available()) GTEST_SKIP() << "ibsim/opensm/umad2sim not installed";
  }

  // Plans `design` on the live simulated fabric; returns the proof and the plan, and keeps
  // the fabric (fabric.json) and its forwarding tables (lfts.json) in dir_.
  void plan(const wiring::FatTreeDesign& design, nlohmann::json& proof, nlohmann::json& plan, int expected_exit = 0,
            const std::function<void(const testing::SimFabric&)>& then = {}) {
    const std::string net = dir_ + "/design.net";
    write_file_atomic(net, wiring::to_ibsim_netfile(design));
    testing::SimOptions sim;
    sim.start_timeout = std::chrono::seconds(240);
    // Fat-tree routing, as fat-tree sites run it: minhop leaves parallel cables unrouted.
    sim.opensm_args = {"-R", "ftree"};
    testing::SimFabric fabric(net, sim);
    const std::string bin = ibburn::testing::binary_dir() + "/ibburn";
    auto d = fabric.run({bin, "topo", "discover", "-o", dir_ + "/fabric.json"}, std::chrono::seconds(300));
    ASSERT_EQ(d.exit_code, 0) << d.out << d.err;
    auto r = fabric.run({bin, "plan", "--fabric", "live", "--routing", "lft", "-o", dir_ + "/plan.json", "--proof",
                         dir_ + "/proof.json", "--save-lfts", dir_ + "/lfts.json"},
                        std::chrono::seconds(300));
    ASSERT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    EXPECT_NE(r.out.find("stage(s) (lower bound"), std::string::npos) << r.out;
    std::cout << r.out;
    proof = nlohmann::json::parse(read_file(dir_ + "/proof.json"));
    plan = nlohmann::json::parse(read_file(dir_ + "/plan.json"));
    if (then) then(fabric);
  }

  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

void expect_full_coverage(const wiring::FatTreeDesign& design, const nlohmann::json& proof,
                          const nlohmann::json& plan) {
  // Every cable of the design, in both directions.
  EXPECT_EQ(proof["cable_directions"].get<size_t>(), 2 * design.wiring.cables.size());
  EXPECT_EQ(proof["covered"], proof["cable_directions"]);
  for (const auto& e : proof["edges"]) {
    EXPECT_FALSE(e["stage"].is_null()) << e.dump();
    EXPECT_GE(e["load"].get<double>(), 0.9) << e.dump();
    EXPECT_LE(e["load"].get<double>(), 1.0 + 1e-9) << e.dump();
  }
  EXPECT_EQ(plan["stages"].size(), proof["stages"].get<size_t>());
  // Each stage: every rank sends at most once and receives at most once (one flow per
  // HCA direction, so no host link is oversubscribed).
  for (const auto& st : plan["stages"]) {
    std::set<int> src, dst;
    for (const auto& f : st["flows"]) {
      EXPECT_TRUE(src.insert(f["src"].get<int>()).second);
      EXPECT_TRUE(dst.insert(f["dst"].get<int>()).second);
    }
  }
}

TEST_F(PlanOnIbsim, SmallThreeTierCoversEveryCable) {
  wiring::FatTreeSpec s;
  s.radix = 8;
  s.hosts = 16;
  s.hcas_per_host = 2;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  auto design = wiring::generate_fat_tree(s);
  nlohmann::json proof, plan_json;
  plan(design, proof, plan_json);
  expect_full_coverage(design, proof, plan_json);
}

TEST_F(PlanOnIbsim, ForwardingTablesAreTheOnesIbrouteReads) {
  // The tables read with many SMPs in flight are opensm's, entry for entry: every valid
  // (LID, port) `ibroute -n` prints for each switch, and no other.
  wiring::FatTreeSpec s;
  s.radix = 8;
  s.hosts = 16;
  s.hcas_per_host = 2;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  auto design = wiring::generate_fat_tree(s);
  nlohmann::json proof, plan_json;
  const std::string dir = dir_;
  plan(design, proof, plan_json, 0, [&](const testing::SimFabric& fabric) {
    const auto lfts = nlohmann::json::parse(read_file(dir + "/lfts.json"))["switches"];
    const auto nodes = nlohmann::json::parse(read_file(dir + "/fabric.json"))["nodes"];
    size_t switches = 0;
    for (const auto& n : nodes) {
      if (n["type"] != "Switch") continue;
      ++switches;
      const std::string guid = n["guid"];
      const int lid = n["ports"][0]["lid"];
      auto r = fabric.run({"ibroute", "-n", std::to_string(lid)});
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
      std::map<int, int> theirs, ours;
      std::istringstream lines(r.out);
      std::string line;
      while (std::getline(lines, line)) {
        unsigned entry_lid = 0, port = 0;
        if (std::sscanf(line.c_str(), "0x%4x %3u", &entry_lid, &port) == 2) theirs[entry_lid] = port;
      }
      ASSERT_TRUE(lfts.contains(guid)) << guid;
      const auto table = lfts[guid].get<std::vector<int>>();
      for (size_t l = 0; l < table.size(); ++l)
        if (table[l] != 255) ours[static_cast<int>(l)] = table[l];
      EXPECT_FALSE(theirs.empty()) << r.out;
      EXPECT_EQ(ours, theirs) << "switch " << guid << " (LID " << lid << ")";
    }
    EXPECT_EQ(lfts.size(), switches);
  });
}

TEST_F(PlanOnIbsim, FullFieldNotesShapeCoversEveryCable) {
  // The field-notes tree with all 512 hosts: every cable has traffic under ftree routes.
  auto spec = *wiring::fat_tree_preset("field-notes");
  spec.hosts = 512;
  spec.rate = {topo::Width::X4, topo::Speed::HDR};  // what ibsim simulates
  auto design = wiring::generate_fat_tree(spec);
  nlohmann::json proof, plan_json;
  plan(design, proof, plan_json);
  expect_full_coverage(design, proof, plan_json);
  EXPECT_LE(plan_json["stages"].size(), 2u);
}

TEST_F(PlanOnIbsim, FieldNotesFabricCoversEveryRoutedCable) {
  // 511 hosts: the 512th host's slot is absent, so the down-links that ftree reserves for
  // it (spine -> its 8 leaves, core -> that spine) carry no route at all. Everything else
  // is covered, and the planner says which directions no route uses (exit 1).
  auto spec = *wiring::fat_tree_preset("field-notes");
  spec.rate = {topo::Width::X4, topo::Speed::HDR};
  auto design = wiring::generate_fat_tree(spec);
  nlohmann::json proof, plan_json;
  const std::string dir = dir_;
  plan(design, proof, plan_json, 1, [&](const testing::SimFabric& fabric) {
    // That plan through the fluid model with one cable at 25% (`burn --transport sim`, opensm's
    // routes): the burn's own summary names the cable, both directions, after probe stages.
    write_file_atomic(dir + "/names", wiring::node_name_map(design).to_text());
    for (const std::string bad : {"pod2-spine03[5]", "pod5-leaf07[33]", "core17[2]"}) {
      const std::string out = dir + "/burn-" + bad.substr(0, bad.find('['));
      auto r =
          fabric.run({ibburn::testing::binary_dir() + "/ibburn", "burn", "--transport", "sim", "--fabric",
                      dir + "/fabric.json", "--lfts", dir + "/lfts.json", "--node-name-map", dir + "/names", "--plan",
                      dir + "/plan.json", "--degrade", bad + "=0.25", "--out", out, "--quiet", "--duration", "10ms"},
                     std::chrono::seconds(120));
      ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
      auto summary = nlohmann::json::parse(read_file(out + "/summary.json"));
      ASSERT_GE(summary["suspects"].size(), 2u) << summary["suspects"].dump(1);
      std::set<std::string> named;
      for (const auto& s : summary["suspects"]) {
        EXPECT_GE(s["confidence"].get<double>(), 0.75) << s.dump();
        named.insert(s["from"].get<std::string>());
        named.insert(s["to"].get<std::string>());
      }
      EXPECT_TRUE(named.count(bad)) << bad << " not among " << summary["suspects"].dump(1);
      EXPECT_EQ(summary["suspects"].size(), 2u) << summary["suspects"].dump(1);
      EXPECT_NE(r.err.find("suspect_cable"), std::string::npos) << r.err;
    }
  });
  EXPECT_EQ(proof["cable_directions"].get<size_t>(), 2 * design.wiring.cables.size());
  size_t uncovered = 0;
  for (const auto& e : proof["edges"]) {
    EXPECT_LE(e["load"].get<double>(), 1.0 + 1e-9) << e.dump();
    if (!e["stage"].is_null()) continue;
    ++uncovered;
    EXPECT_EQ(e["load"].get<double>(), 0.0) << e.dump();
    EXPECT_EQ(e["to"].get<std::string>().rfind("pod8-", 0), 0u) << e.dump();
  }
  EXPECT_EQ(uncovered, 16u);
  EXPECT_NE(proof["notes"].dump().find("no route between the endpoints uses them"), std::string::npos);
}

}  // namespace
}  // namespace ibburn
