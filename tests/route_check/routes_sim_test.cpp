// `ibburn topo routes` against the tables opensm's routing engines really program in ibsim:
// minhop on a ring of switches closes credit loops, LASH on the same ring spreads the routes
// over VLs so that none is left once VLs are counted, updn and ftree on a fat tree leave
// none, minhop on a miswired fat tree turns routes down then up, and a saved table with a
// hole names the LID's owner. opensm's own dump of the tables is read as well.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn {
namespace {

using testing::SimFabric;

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";

// An ibsim net file from switch-to-switch cables: each switch "S<i>" has `ports` ports; the
// first `hca_switches` (all: 0) carry `hcas_per_switch` HCAs "H<i>-<k>" on ports 1..k; cables
// (a, pa, b, pb).
struct Cable {
  int a, pa, b, pb;
};
std::string net_file(int switches, int ports, const std::vector<Cable>& cables, int hcas_per_switch = 1,
                     int hca_switches = 0) {
  if (hca_switches == 0) hca_switches = switches;
  std::map<int, std::map<int, std::string>> peer;
  for (const Cable& c : cables) {
    peer[c.a][c.pa] = "\"S" + std::to_string(c.b) + "\"[" + std::to_string(c.pb) + "]";
    peer[c.b][c.pb] = "\"S" + std::to_string(c.a) + "\"[" + std::to_string(c.pa) + "]";
  }
  std::string out;
  for (int s = 1; s <= switches; ++s) {
    out += "Switch\t" + std::to_string(ports) + " \"S" + std::to_string(s) + "\"\n";
    for (int h = 1; s <= hca_switches && h <= hcas_per_switch; ++h)
      out += "[" + std::to_string(h) + "]\t\"H" + std::to_string(s) + "-" + std::to_string(h) + "\"[1]\n";
    for (const auto& [p, text] : peer[s]) out += "[" + std::to_string(p) + "]\t" + text + "\n";
    out += "\n";
  }
  for (int s = 1; s <= hca_switches; ++s)
    for (int h = 1; h <= hcas_per_switch; ++h)
      out += "Hca\t1 \"H" + std::to_string(s) + "-" + std::to_string(h) + "\"\n[1]\t\"S" + std::to_string(s) + "\"[" +
             std::to_string(h) + "]\n\n";
  return out;
}

// n switches in a ring: S<i>[3] to S<i+1>[2].
std::string ring(int n) {
  std::vector<Cable> cables;
  for (int i = 1; i <= n; ++i) cables.push_back({i, 3, i % n + 1, 2});
  return net_file(n, 4, cables);
}

class RoutesOnIbsim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm/umad2sim not installed";
  }

  std::unique_ptr<SimFabric> start(const std::string& net_text, std::vector<std::string> opensm_args) {
    const std::string net = dir_ + "/fabric.net";
    write_file_atomic(net, net_text);
    testing::SimOptions sim;
    sim.opensm_args = std::move(opensm_args);
    return std::make_unique<SimFabric>(net, sim);
  }

  // Runs `topo routes` with `args`; the findings' kinds counted, the whole JSON in json_.
  // `expected_exit` -1: 0 or 1 (findings or none).
  std::map<std::string, int> routes(const SimFabric& f, std::vector<std::string> args, int expected_exit) {
    const std::string out = dir_ + "/routes.json";
    std::vector<std::string> argv = {kIbburn, "topo", "routes", "--json", out};
    argv.insert(argv.end(), args.begin(), args.end());
    last_ = f.run(argv, std::chrono::seconds(120));
    std::cout << last_.out;
    if (expected_exit < 0)
      EXPECT_TRUE(last_.exit_code == 0 || last_.exit_code == 1) << last_.out << last_.err;
    else
      EXPECT_EQ(last_.exit_code, expected_exit) << last_.out << last_.err;
    json_ = nlohmann::json::parse(read_file(out));
    std::map<std::string, int> kinds;
    for (const auto& x : json_["findings"]) ++kinds[x["kind"].get<std::string>()];
    return kinds;
  }

  std::vector<nlohmann::json> of_kind(const std::string& kind) const {
    std::vector<nlohmann::json> out;
    for (const auto& x : json_["findings"])
      if (x["kind"] == kind) out.push_back(x);
    return out;
  }

  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
  testing::CommandResult last_;
  nlohmann::json json_;
};

TEST_F(RoutesOnIbsim, MinhopOnARingOfFiveSwitchesClosesACreditLoopEachWayRound) {
  auto f = start(ring(5), {"-R", "minhop"});
  const auto kinds = routes(*f, {"--per-vl", "no"}, 1);
  EXPECT_EQ(kinds.at("credit_loop"), 2) << last_.out;
  EXPECT_EQ(kinds.count("route_unreachable"), 0u) << last_.out;
  for (const auto& loop : of_kind("credit_loop")) {
    EXPECT_EQ(loop["details"]["cables"].size(), 5u) << loop;  // round the whole ring
    EXPECT_EQ(loop["details"]["vl"], 0);
    EXPECT_FALSE(loop["details"]["closing_route"].is_null()) << loop;
  }
  EXPECT_EQ(json_["routes"]["vls"], 1);
}

TEST_F(RoutesOnIbsim, LashOnTheRingUsesTwoVlsAndLeavesNoLoopOnceVlsAreCounted) {
  auto f = start(ring(5), {"-R", "lash"});
  // One graph: the loops minhop's routes also close.
  EXPECT_GE(routes(*f, {"--per-vl", "no"}, 1).at("credit_loop"), 1) << last_.out;
  // Per VL, from the SL2VL tables and the SA's path SLs: none.
  const std::string vls = dir_ + "/vls.json";
  auto kinds = routes(*f, {"--per-vl", "yes", "--save-vls", vls}, 0);
  EXPECT_EQ(kinds.count("credit_loop"), 0u) << last_.out;
  EXPECT_GE(json_["routes"]["vls"].get<int>(), 2);
  // auto: one graph first, then per VL because of its loop; the same verdict, and from the
  // saved tables too.
  kinds = routes(*f, {}, 0);
  EXPECT_EQ(kinds.count("credit_loop"), 0u) << last_.out;
  EXPECT_NE(last_.err.find("judging again per VL"), std::string::npos) << last_.err;
  kinds = routes(*f, {"--per-vl", "yes", "--vls", vls}, 0);
  EXPECT_EQ(kinds.count("credit_loop"), 0u) << last_.out;
  // The tables say which pairs LASH moved: some path SL is not 0.
  const auto saved = nlohmann::json::parse(read_file(vls));
  bool moved = false;
  for (const auto& row : saved["path_sls"]) moved = moved || row[2] != 0;
  EXPECT_TRUE(moved) << saved["path_sls"];
}

// DFSSSP spreads its routes over all eight of ibsim's VLs by SL: per VL, no loop.
TEST_F(RoutesOnIbsim, DfssspOnTheRingLeavesNoLoopPerVl) {
  auto f = start(ring(5), {"-R", "dfsssp"});
  const auto kinds = routes(*f, {"--per-vl", "yes"}, 0);
  EXPECT_EQ(kinds.count("credit_loop"), 0u) << last_.out;
  EXPECT_EQ(kinds.count("route_unreachable"), 0u) << last_.out;
}

wiring::FatTreeDesign small_tree() {
  wiring::FatTreeSpec s;
  s.tiers = 3;
  s.radix = 8;
  s.hosts = 32;
  s.hcas_per_host = 1;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  return wiring::generate_fat_tree(s);
}

TEST_F(RoutesOnIbsim, UpDownAndFatTreeRoutingOnAFatTreeCloseNoLoop) {
  for (const char* engine : {"updn", "ftree"}) {
    SCOPED_TRACE(engine);
    auto f = start(wiring::to_ibsim_netfile(small_tree()), {"-R", engine});
    const auto kinds = routes(*f, {}, -1);
    EXPECT_EQ(kinds.count("credit_loop"), 0u) << last_.out;
    EXPECT_EQ(kinds.count("route_unreachable"), 0u) << last_.out;
    EXPECT_EQ(kinds.count("route_down_up"), 0u) << last_.out;
    EXPECT_TRUE(json_["routes"]["tree"].get<bool>());
  }
}

TEST_F(RoutesOnIbsim, MinhopOnAFatTreeWhoseEndLeavesEachLostOneSpineTurnsRoutesDownThenUp) {
  // Three leaves (S1-S3) under two spines (S4, S5): S1's cable to S5 went to S4 instead and S3's
  // to S4 went to S5, so S1 reaches S3 only through S2: down into it, up again.
  const std::string net =
      net_file(5, 8, {{1, 3, 4, 1}, {1, 4, 4, 4}, {2, 3, 4, 2}, {2, 4, 5, 2}, {3, 3, 5, 5}, {3, 4, 5, 3}}, 2, 3);
  auto f = start(net, {"-R", "minhop"});
  const auto kinds = routes(*f, {"--per-vl", "no"}, 1);
  const auto turns = of_kind("route_down_up");
  ASSERT_EQ(turns.size(), 1u) << last_.out;
  EXPECT_EQ(turns[0]["details"]["switch"], "S2");
  EXPECT_EQ(kinds.count("route_unreachable"), 0u) << last_.out;
}

TEST_F(RoutesOnIbsim, ASavedTableWithAHoleNamesTheSwitchAndTheLidsHca) {
  const std::string dumps = dir_ + "/osm-dumps";
  std::filesystem::create_directories(dumps);
  auto f = start(ring(4), {"-R", "minhop", "--dump_files_dir", dumps, "-D", "0x43"});
  const std::string snap = dir_ + "/fabric.json", lfts = dir_ + "/lfts.json";
  ASSERT_EQ(f->run({kIbburn, "topo", "discover", "-o", snap}).exit_code, 0);
  routes(*f, {"--save-lfts", lfts, "--per-vl", "no"}, 1);
  const auto live = json_["findings"];
  // opensm's own dump of the same tables gives the same verdict.
  routes(*f, {"--fabric", snap, "--lfts", dumps + "/opensm.fdbs", "--per-vl", "no"}, 1);
  EXPECT_EQ(json_["findings"], live) << last_.out;

  // Bad input from files: exit 2, naming what is missing or the file and line.
  auto bad = f->run({kIbburn, "topo", "routes", "--fabric", snap});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("needs its forwarding tables: --lfts FILE"), std::string::npos) << bad.err;
  const std::string broken = dir_ + "/broken.fdbs";
  write_file_atomic(broken, "dump_ucast_routes: Switch 0x1\n0x0002 : 003 : 00 : yes\n0x0003 : port3\n");
  bad = f->run({kIbburn, "topo", "routes", "--fabric", snap, "--lfts", broken});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find(broken + ":3: not a port number"), std::string::npos) << bad.err;
  bad = f->run({kIbburn, "topo", "routes", "--fabric", snap, "--lfts", lfts, "--per-vl", "yes"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("per-VL judging needs --vls FILE or --fabric live"), std::string::npos) << bad.err;

  // Take one HCA's entry out of one switch's table.
  auto saved = nlohmann::json::parse(read_file(lfts));
  auto fabric = nlohmann::json::parse(read_file(snap));
  std::string sw_guid;
  for (const auto& [guid, table] : saved["switches"].items()) sw_guid = guid;
  int lid = 0;
  std::string owner;
  for (const auto& n : fabric["nodes"])
    if (n["type"] == "CA" && n["description"] == "H3-1")
      for (const auto& p : n["ports"])
        if (p["number"] == 1) lid = p["lid"], owner = "H3-1[1]";
  ASSERT_GT(lid, 0) << fabric.dump().substr(0, 2000);
  saved["switches"][sw_guid][static_cast<size_t>(lid)] = 255;
  const std::string hole = dir_ + "/hole.json";
  write_file_atomic(hole, saved.dump());
  const auto kinds = routes(*f, {"--fabric", snap, "--lfts", hole, "--per-vl", "no"}, 1);
  ASSERT_EQ(kinds.at("route_unreachable"), 1) << last_.out;
  const auto found = of_kind("route_unreachable")[0];
  EXPECT_NE(found["message"].get<std::string>().find("no entry for LID " + std::to_string(lid) + " (" + owner + ")"),
            std::string::npos)
      << found;
}

// A ring cable cut with no SM left to reroute: the tables still send routes into it, and the
// LID routes to the far switches cross it, so their tables are read by directed route the
// other way round, and the routes that run into the cut are dead ends at its switches.
TEST_F(RoutesOnIbsim, ACableCutAfterTheSmDiedLeavesDeadEndsReadByDirectedRoute) {
  auto f = start(ring(5), {"-R", "minhop"});
  f->kill_sm();
  f->console("Unlink \"S2\"[3]");  // S2 - S3
  const auto kinds = routes(*f, {"--per-vl", "no"}, 1);
  EXPECT_NE(last_.err.find("by directed route"), std::string::npos) << last_.err;
  ASSERT_EQ(kinds.at("route_unreachable"), 2) << last_.out;
  std::string all;
  for (const auto& x : of_kind("route_unreachable")) all += x["message"].get<std::string>() + "\n";
  EXPECT_NE(all.find("switch S2 does not route"), std::string::npos) << all;
  EXPECT_NE(all.find("switch S3 does not route"), std::string::npos) << all;
  EXPECT_NE(all.find("out of port 3, which has no cable"), std::string::npos) << all;
  EXPECT_NE(all.find("out of port 2, which has no cable"), std::string::npos) << all;
}

// `ibburn run` judges the routes before any traffic: minhop's loops on the ring stop the job
// (per VL too: minhop puts every route on SL 0), and --burn-anyway burns regardless.
TEST_F(RoutesOnIbsim, TheRunStopsBeforeAnyTrafficOnACreditLoop) {
  auto f = start(ring(5), {"-R", "minhop"});
  const std::string out = dir_ + "/run";
  auto r =
      f->run({kIbburn, "run", "--transport", "sim", "--fabric", "live", "--duration", "1s", "--quiet", "--out", out},
             std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("stopped before any traffic: credit loop on VL 0"), std::string::npos) << r.err;
  auto s = nlohmann::json::parse(read_file(out + "/summary.json"));
  EXPECT_EQ(s["job"]["outcome"], "stopped");
  EXPECT_EQ(s["stages_run"], 0);
  int loops = 0;
  for (const auto& x : s["findings"]) loops += x["kind"] == "credit_loop";
  EXPECT_EQ(loops, 2);

  r = f->run({kIbburn, "run", "--transport", "sim", "--fabric", "live", "--duration", "1s", "--quiet", "--out",
              out + "-anyway", "--burn-anyway"},
             std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the loops are findings still
  s = nlohmann::json::parse(read_file(out + "-anyway/summary.json"));
  EXPECT_GE(s["stages_run"].get<int>(), 1) << r.err;
}

}  // namespace
}  // namespace ibburn
