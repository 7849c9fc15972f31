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
  link(f, sw1, 3, sw2, 3, edr, hdr);   // ends disagree
  link(f, sw2, 1, h2, 1, {}, {});      // rate unknown
  link(f, sw3, 1, lone, 1, hdr, hdr);  // second island
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

TEST(FabricSummary, IslandsWithoutAnActiveSmAreNamedOneLineEach) {
  const LinkRate hdr{Width::X4, Speed::HDR};
  Fabric f;
  // Island 1 (sw1, h1, h2): the SM's island, Active. Island 2 (sw2, h3, h4): Initialize but
  // for one port. Island 3 (sw3, h5): states unknown, as in an ibnetdiscover dump.
  NodeId sw1 = f.add_node(NodeType::Switch, 1, "sw1", 4), sw2 = f.add_node(NodeType::Switch, 2, "sw2", 4);
  NodeId sw3 = f.add_node(NodeType::Switch, 3, "sw3", 4);
  NodeId h1 = f.add_node(NodeType::CA, 11, "h1 mlx5_0", 1), h2 = f.add_node(NodeType::CA, 12, "h2 mlx5_0", 1);
  NodeId h3 = f.add_node(NodeType::CA, 13, "h3 mlx5_0", 1), h4 = f.add_node(NodeType::CA, 14, "h4 mlx5_0", 1);
  NodeId h5 = f.add_node(NodeType::CA, 15, "h5 mlx5_0", 1);
  link(f, sw1, 1, h1, 1, hdr, hdr);
  link(f, sw1, 2, h2, 1, hdr, hdr);
  link(f, sw2, 1, h3, 1, hdr, hdr);
  link(f, sw2, 2, h4, 1, hdr, hdr);
  link(f, sw3, 1, h5, 1, hdr, hdr);
  auto set = [&](NodeId n, int p, PortState s) {
    f.node(n).ports[p].state = s;
    f.node(n).ports[p].phys = PhysState::LinkUp;
  };
  for (auto [n, p] : {std::pair{sw1, 1}, {sw1, 2}, {h1, 1}, {h2, 1}, {h4, 1}}) set(n, p, PortState::Active);
  for (auto [n, p] : {std::pair{sw2, 1}, {sw2, 2}, {h3, 1}}) set(n, p, PortState::Init);
  f.reset_names_to_descriptions();

  FabricSummary s = summarize(f);
  ASSERT_EQ(s.islands_without_sm.size(), 1u);
  const IslandWithoutSm& island = s.islands_without_sm[0];
  EXPECT_EQ(island.nodes, (std::vector<NodeId>{sw2, h3, h4}));
  EXPECT_EQ(island.example, "sw2");
  EXPECT_EQ(island.links, 2u);
  EXPECT_EQ(island.not_active.size(), 2u);  // sw2[2] - h4 counts: one end is not Active
  const std::string text = to_text(s);
  EXPECT_NE(text.find("no active subnet manager: 1 switch, 2 HCAs (e.g. sw2): 2 of 2 links up but not Active\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(to_json(s)["islands_without_sm"][0]["links_not_active"], 2);

  // 3 of 4 ports not Active is most; 2 of 4 is not.
  set(sw2, 2, PortState::Active);
  EXPECT_TRUE(summarize(f).islands_without_sm.empty());
  EXPECT_EQ(to_text(summarize(f)).find("subnet manager"), std::string::npos);
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
