#include "topo/node_name_map.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "topo/fabric.h"

using namespace ibburn::topo;

TEST(NodeNameMap, ParsesFirstEntryWinsAndComments) {
  auto m = NodeNameMap::parse(
      "# site map\n0x0002c90300a1b2c3 \"leaf-01\"\n0x0002c90300a1b2c3 \"dup\"\n"
      "  0x10 spine-01  \n\n",
      "map.txt");
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(*m.find(0x0002c90300a1b2c3ULL), "leaf-01");
  EXPECT_EQ(*m.find(0x10), "spine-01");
  auto again = NodeNameMap::parse(m.to_text(), "x");
  EXPECT_EQ(*again.find(0x10), "spine-01");
}

TEST(NodeNameMap, ErrorsNameFileAndLine) {
  try {
    NodeNameMap::parse("0x10 \"a\"\nzz12 \"b\"\n", "map.txt");
    FAIL();
  } catch (const ibburn::InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("map.txt:2"), std::string::npos);
  }
}

TEST(NodeNameMap, AppliesToFabric) {
  Fabric f;
  f.add_node(NodeType::Switch, 0x10, "MF0;sw:MQM9700/U1", 64);
  f.add_node(NodeType::CA, 0x20, "h1 mlx5_0", 1);
  NodeNameMap::parse("0x10 \"leaf-01\"\n", "m").apply(f);
  EXPECT_EQ(f.node(0).name, "leaf-01");
  EXPECT_EQ(f.node(1).name, "h1 mlx5_0");
  EXPECT_EQ(*f.find_name("leaf-01"), 0u);
}
