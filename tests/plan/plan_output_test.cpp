#include "plan/plan_output.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "tests/routing/fat_tree_fixture.h"
#include "tests/support/temp_dir.h"

using namespace ibburn::plan;
using namespace ibburn::planner;
using namespace ibburn::routing;

TEST(Endpoints, ParsesRanksAndGuids) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  auto eps = parse_endpoints("# rank guid\n1 0x4000\n0 0x4003\n", "eps.txt", t.fabric);
  ASSERT_EQ(eps.size(), 2u);
  EXPECT_EQ(eps[0].node, t.hosts[3]);
  EXPECT_EQ(eps[1].node, t.hosts[0]);
  auto implicit = parse_endpoints("0x4001\n0x4002\n", "e", t.fabric);
  EXPECT_EQ(implicit[1].node, t.hosts[2]);
}

TEST(Endpoints, FromABurnsResults) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  // Endpoints as the burn writes them (results.jsonl is read strictly: burn::read_run_endpoints).
  const std::string ep = R"("address":"","link_layer":"InfiniBand","rate_gbps":400,"gpu":-1)";
  const std::string header = R"({"type":"run","endpoints":[{"host":"a","endpoint":"mlx5_0:1",)" + ep +
                             R"(,"port_guid":"0x0000000000004002"},{"host":"b","endpoint":"mlx5_0:1",)" + ep +
                             R"(,"port_guid":"0x0000000000004000"}]})";
  auto eps = parse_endpoints(header + "\n{\"type\":\"stage\"}\n", "run/results.jsonl", t.fabric);
  ASSERT_EQ(eps.size(), 2u);
  EXPECT_EQ(eps[0].node, t.hosts[2]);
  EXPECT_EQ(eps[1].node, t.hosts[0]);
  try {
    parse_endpoints(R"({"type":"run","endpoints":[{"host":"a","endpoint":"eth0",)" + ep + "}]}", "r.jsonl", t.fabric);
    FAIL();
  } catch (const ibburn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 (a eth0) has no port GUID"), std::string::npos) << e.what();
  }
}

TEST(Endpoints, ErrorsNameTheLine) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  auto expect_error = [&](const std::string& text, int line, const std::string& what) {
    try {
      parse_endpoints(text, "eps.txt", t.fabric);
      FAIL() << text;
    } catch (const ibburn::InputError& e) {
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  expect_error("0x4000\n0xdead\n", 2, "not an HCA port");
  expect_error("0 0x4000\n0 0x4001\n", 2, "given twice");
  expect_error("0 0x4000\n2 0x4001\n", 0, "rank 1 has no endpoint");
  expect_error("zz\n", 1, "bad rank or GUID");
  // Two HCAs flashed with one port GUID: the rank is on neither, and the message names both.
  for (auto& p : t.fabric.node(t.hosts[1]).ports)
    if (p.number == 1) p.guid = 0x4000;
  expect_error("0x4002\n0x4000\n", 2, "share it (give each HCA its own GUID)");
}

TEST(Endpoints, AFileNamesThemElseEveryHcaPort) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  const Endpoints every = load_endpoints("", t.fabric);
  EXPECT_FALSE(every.given);
  EXPECT_EQ(every.ports, all_hca_ports(t.fabric));
  EXPECT_TRUE(given_port_guids(every, t.fabric).empty());  // the transport's GUIDs rule

  ibburn::testing::TempDir dir;
  const std::string file = dir.path() + "/eps.txt";
  ibburn::write_file_atomic(file, "1 0x4000\n0 0x4003\n");
  const Endpoints given = load_endpoints(file, t.fabric);
  EXPECT_TRUE(given.given);
  ASSERT_EQ(given.ports.size(), 2u);
  EXPECT_EQ(given.ports[0].node, t.hosts[3]);
  EXPECT_EQ(given_port_guids(given, t.fabric), (std::vector<uint64_t>{0x4003, 0x4000}));

  ibburn::write_file_atomic(file, "0x4000\n0xdead\n");
  try {
    load_endpoints(file, t.fabric);
    FAIL();
  } catch (const ibburn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(PlanOutput, BurnPlanAndProofAgreeWithTheResult) {
  auto t = fixture::make_fat_tree(2, 2, 2);
  CableIndex cables(t.fabric, 200);
  LftRouter r(t.fabric, cables, t.lfts);
  auto eps = all_hca_ports(t.fabric);
  PlanResult res = make_plan(t.fabric, cables, r, eps, {});
  auto plan = to_burn_plan(res, "test");
  ASSERT_EQ(plan.stages.size(), res.stages.size());
  EXPECT_EQ(plan.stages[0].flows.size(), res.stages[0].size());
  auto proof = coverage_proof(t.fabric, cables, res);
  EXPECT_EQ(proof["covered"], cables.size());
  EXPECT_EQ(proof["edges"].size(), cables.size());
  for (const auto& e : proof["edges"]) EXPECT_FALSE(e["stage"].is_null());
  // The burn plan parses back with the burn engine's own validator.
  auto back = ibburn::burn::plan_from_json(ibburn::burn::to_json(plan), static_cast<int>(eps.size()), "x");
  EXPECT_EQ(back.stages.size(), plan.stages.size());
}
