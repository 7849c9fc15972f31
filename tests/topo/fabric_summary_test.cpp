// `topo show`'s summary on hand-built fabrics: counts, rates, ports down, islands, unreached.
#include "topo/fabric_summary.h"

#include <gtest/gtest.h>

namespace ibburn::topo {
namespace {

void link(Fabric& f, NodeId a, int pa, NodeId b, int pb, LinkRate rate_a, LinkRate rate_b) {
  f.connect({a, pa}, {b, pb});
  f.node(a).ports[pa].active = rate_a;
  f.node(b).ports[pb].active = rate_b;
}

TEST(FabricSummary, CountsRatesPortsDownIslandsAndUnreached) {
  const LinkRate hdr{Width::X4, Speed::HDR}, edr{Width::X4, Speed::EDR};
  Fabric f;
  NodeId sw1 = f.add_node(NodeType::Switch, 1, "sw1", 8);
  NodeId sw2 = f.add_node(NodeType::Switch, 2, "sw2", 8);
  NodeId h1 = f.add_node(NodeType::CA, 11, "h1 mlx5_0", 2);
  NodeId h2 = f.add_node(NodeType::CA, 12, "h2 mlx5_0", 1);
  NodeId lone = f.add_node(NodeType::CA, 13, "lone mlx5_0", 1);
  NodeId sw3 = f.add_node(NodeType::Switch, 3, "sw3", 4);
  link(f, sw1, 1, h1, 1, hdr, hdr);
  link(f, sw1, 2, sw2, 2, hdr, hdr);
  link(f, sw1, 3, sw2, 3, edr, hdr);  // ends disagree
  link(f, sw2, 1, h2, 1, {}, {});     // rate unknown
  link(f, sw3, 1, lone, 1, hdr, hdr); // second island
  f.node(sw2).ports[4].peer_unreached = true;
  f.reset_names_to_descriptions();

  FabricSummary s = summarize(f);
  EXPECT_EQ(s.switches, 3u);
  EXPECT_EQ(s.cas, 3u);
  EXPECT_EQ(s.links, 5u);
  EXPECT_EQ(s.links_by_rate.at("4xHDR"), 3u);
  EXPECT_EQ(s.links_by_rate.at("4xEDR"), 1u);
  EXPECT_EQ(s.links_by_rate.at("?"), 1u);
  EXPECT_EQ(s.rate_mismatched_links, 1u);
  // sw1: 8 - 3 linked; sw2: 8 - 3 linked - 1 unreached; sw3: 4 - 1.
  EXPECT_EQ(s.switch_ports_down, 5u + 4u + 3u);
  ASSERT_EQ(s.ca_ports_down.size(), 1u);
  EXPECT_EQ(s.ca_ports_down[0], "h1 mlx5_0[2]");
  EXPECT_EQ(s.island_sizes, (std::vector<size_t>{4, 2}));
  ASSERT_EQ(s.unreached_peers.size(), 1u);
  EXPECT_EQ(s.unreached_peers[0], "sw2[4]");

  const std::string text = to_text(s);
  EXPECT_NE(text.find("nodes: 3 switches, 3 HCAs"), std::string::npos) << text;
  EXPECT_NE(text.find("islands: 2 (nodes per island: 4 2)"), std::string::npos) << text;
  EXPECT_NE(text.find("sw2[4]"), std::string::npos) << text;
  const nlohmann::json j = to_json(s);
  EXPECT_EQ(j["links_by_rate"]["4xHDR"], 3);
  EXPECT_EQ(j["unreached_peers"][0], "sw2[4]");
}

TEST(FabricSummary, LongListsAreCut) {
  Fabric f;
  for (int i = 0; i < 30; ++i) f.add_node(NodeType::CA, 100 + i, "h" + std::to_string(i), 1);
  f.reset_names_to_descriptions();
  FabricSummary s = summarize(f);
  EXPECT_EQ(s.ca_ports_down.size(), 30u);
  EXPECT_EQ(s.island_sizes.size(), 30u);
  const std::string text = to_text(s, 5);
  EXPECT_NE(text.find("... and 25 more"), std::string::npos) << text;
}

}  // namespace
}  // namespace ibburn::topo
