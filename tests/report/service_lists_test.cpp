#include <gtest/gtest.h>

#include "common/error.h"
#include "report/service_lists.h"

using namespace ibburn;
using namespace ibburn::report;

TEST(ReportServiceLists, DrainHostsAndTheGuardsNotes) {
  const auto d = parse_drain(
      "# not drained: 26 of the job's 511 hosts would be drained\n# gpu001\terrors_under_load: x\n"
      "gpu002\tslow_endpoint: 120 Gb/s\n\ngpu003\n");
  ASSERT_EQ(d.hosts.size(), 2u);
  EXPECT_EQ(d.hosts[0].host, "gpu002");
  EXPECT_EQ(d.hosts[0].reason, "slow_endpoint: 120 Gb/s");
  EXPECT_EQ(d.hosts[1].host, "gpu003");
  EXPECT_EQ(d.hosts[1].reason, "");
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_EQ(d.notes[1], "gpu001\terrors_under_load: x");
  EXPECT_EQ(drain_as_text(d.hosts), "gpu002\tslow_endpoint: 120 Gb/s\ngpu003\t\n");
}

TEST(ReportServiceLists, CablesByHeaderNameWithAndWithoutTheModule) {
  const auto plain = parse_cables_csv(
      "a_node,a_port,b_node,b_port,cable,action,evidence\n"
      "\"host001 mlx5_0\",1,\"leaf01\",1,\"C-0001\",reseat,\"errors_under_load: SymbolErrorCounter +40, \"\"x\"\"\"\n",
      "cables.csv");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].a_node, "host001 mlx5_0");
  EXPECT_EQ(plain[0].b_port, "1");
  EXPECT_EQ(plain[0].label, "C-0001");
  EXPECT_EQ(plain[0].evidence, "errors_under_load: SymbolErrorCounter +40, \"x\"");
  EXPECT_EQ(module_text(plain[0]), "");
  EXPECT_EQ(cables_as_text(plain),
            "C-0001: host001 mlx5_0[1] <-> leaf01[1]: reseat: errors_under_load: SymbolErrorCounter +40, \"x\"\n");

  // Columns in another order, each end's module after them (one DAC: both ends one part).
  const auto parts = parse_cables_csv(
      "action,a_node,a_port,b_node,b_port,cable,evidence,a_part,b_part\n"
      "replace,leaf01,33,spine01,1,,link_down: went down,Mellanox MCP4Y10-N002 SN MT2245VS01234,Mellanox MCP4Y10-N002 "
      "SN MT2245VS01234\n",
      "cables.csv");
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].action, "replace");
  EXPECT_EQ(parts[0].a_port, "33");
  EXPECT_EQ(module_text(parts[0]), "Mellanox MCP4Y10-N002 SN MT2245VS01234");
  EXPECT_EQ(cables_as_text(parts),
            "leaf01[33] <-> spine01[1]: replace (Mellanox MCP4Y10-N002 SN MT2245VS01234): link_down: went down\n");

  // Two transceivers: each end's own; one end unknown.
  const auto optics = parse_cables_csv(
      "a_node,a_port,b_node,b_port,cable,action,evidence,a_part,b_part\n"
      "leaf01,33,spine01,1,,reseat,ber_high,FS OSFP-SR8-800G SN G1,FS OSFP-SR8-800G SN G2\n"
      "leaf01,34,spine01,2,,reseat,ber_high,,FS OSFP-SR8-800G SN G3\n",
      "cables.csv");
  ASSERT_EQ(optics.size(), 2u);
  EXPECT_EQ(module_text(optics[0]), "A: FS OSFP-SR8-800G SN G1; B: FS OSFP-SR8-800G SN G2");
  EXPECT_EQ(module_text(optics[1]), "B: FS OSFP-SR8-800G SN G3");
}

TEST(ReportServiceLists, BadCablesCsvNamesFileAndLine) {
  try {
    parse_cables_csv("a_node,a_port,b_node,cable\n", "run/cables.csv");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("run/cables.csv:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("b_port"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_cables_csv("a_node,a_port,b_node,b_port,action\nleaf01,1,spine01\n", "c.csv"), InputError);
}

// The pricing's cost (docs/price.md): drain.txt's third column and cables.csv's `cost` column.
TEST(ReportServiceLists, TheCostOfAHostAndOfACable) {
  const auto d =
      parse_drain("gpu002\tslow_endpoint: 120 Gb/s\tcost: ring all-reduce, 64 hosts: 3.33x in 1% of placements\n");
  ASSERT_EQ(d.hosts.size(), 1u);
  EXPECT_EQ(d.hosts[0].reason, "slow_endpoint: 120 Gb/s");
  EXPECT_EQ(d.hosts[0].cost, "ring all-reduce, 64 hosts: 3.33x in 1% of placements");
  EXPECT_EQ(drain_as_text(d.hosts),
            "gpu002\tslow_endpoint: 120 Gb/s (costs ring all-reduce, 64 hosts: 3.33x in 1% of placements)\n");
  const auto c = parse_cables_csv(
      "a_node,a_port,b_node,b_port,cable,action,cost,evidence\n"
      "\"host001 mlx5_0\",1,\"leaf01\",1,\"C-1\",reseat,\"all-to-all, 8 hosts: 2.00x in 50% of placements\",\"x\"\n",
      "cables.csv");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].cost, "all-to-all, 8 hosts: 2.00x in 50% of placements");
  EXPECT_EQ(cables_as_text(c),
            "C-1: host001 mlx5_0[1] <-> leaf01[1]: reseat [all-to-all, 8 hosts: 2.00x in 50% of placements]: x\n");
}
