#include "topo/fabric.h"

#include <gtest/gtest.h>

using namespace ibburn::topo;

TEST(Fabric, ConnectListsEachLinkOnceAndFindsIslands) {
  Fabric f;
  NodeId sw = f.add_node(NodeType::Switch, 0x10, "sw", 4);
  NodeId h1 = f.add_node(NodeType::CA, 0x20, "h1 mlx5_0", 1);
  NodeId h2 = f.add_node(NodeType::CA, 0x30, "h2 mlx5_0", 1);
  NodeId lone = f.add_node(NodeType::CA, 0x40, "h3 mlx5_0", 1);
  f.connect({sw, 1}, {h1, 1});
  f.connect({h2, 1}, {sw, 2});
  EXPECT_EQ(f.links().size(), 2u);
  EXPECT_EQ(f.port({sw, 2}).remote, (PortEnd{h2, 1}));
  auto islands = f.islands();
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].size(), 3u);
  EXPECT_EQ(islands[1], std::vector<NodeId>{lone});
  EXPECT_EQ(f.switch_count(), 1u);
  EXPECT_EQ(f.ca_count(), 3u);
  EXPECT_THROW(f.connect({sw, 1}, {lone, 1}), std::logic_error);
  f.disconnect({sw, 1});
  EXPECT_FALSE(f.port({h1, 1}).linked());
}

TEST(Fabric, FindsByGuidNameAndReportsDuplicateGuids) {
  Fabric f;
  f.add_node(NodeType::Switch, 0x10, "MF0;a:MQM9700/U1", 64);
  f.add_node(NodeType::Switch, 0x10, "MF0;b:MQM9700/U1", 64);
  EXPECT_EQ(*f.find_guid(0x10), 0u);
  EXPECT_EQ(*f.find_name("MF0;b:MQM9700/U1"), 1u);
  EXPECT_FALSE(f.find_guid(0x99));
  ASSERT_EQ(f.duplicate_guids().size(), 1u);
  f.node(1).name = "leaf-2";
  f.reindex_names();
  EXPECT_EQ(*f.find_name("leaf-2"), 1u);
  EXPECT_EQ(f.port_name({1, 7}), "leaf-2[7]");
}

TEST(Fabric, ConnectGrowsPortsBeyondDeclaredCount) {
  Fabric f;
  NodeId a = f.add_node(NodeType::Switch, 1, "a", 2);
  NodeId b = f.add_node(NodeType::Switch, 2, "b", 2);
  f.connect({a, 5}, {b, 1});
  EXPECT_EQ(f.node(a).num_ports, 5);
  EXPECT_EQ(f.node(a).ports[5].number, 5);
}
