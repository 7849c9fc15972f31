// Directed routes over the model (topo/directed_route.h): shortest, around ports seen down,
// through switches only, into a CA over the port asked about.
#include "topo/directed_route.h"

#include <gtest/gtest.h>

#include <vector>

namespace ibburn::topo {
namespace {

// h1 (CA, port 1 on leaf1[1]); h2 (CA, port 1 on leaf2[1], port 2 on leaf1[2]); leaf1[3] and
// leaf2[3] to spine1[1], [2]; leaf1[4] and leaf2[4] to spine2[1], [2].
struct Small {
  Fabric f;
  NodeId h1, h2, leaf1, leaf2, spine1, spine2;
  Small() {
    h1 = f.add_node(NodeType::CA, 0x10, "h1", 1);
    h2 = f.add_node(NodeType::CA, 0x20, "h2", 2);
    leaf1 = f.add_node(NodeType::Switch, 0x100, "leaf1", 8);
    leaf2 = f.add_node(NodeType::Switch, 0x200, "leaf2", 8);
    spine1 = f.add_node(NodeType::Switch, 0x300, "spine1", 8);
    spine2 = f.add_node(NodeType::Switch, 0x400, "spine2", 8);
    f.connect({h1, 1}, {leaf1, 1});
    f.connect({h2, 1}, {leaf2, 1});
    f.connect({h2, 2}, {leaf1, 2});
    f.connect({leaf1, 3}, {spine1, 1});
    f.connect({leaf2, 3}, {spine1, 2});
    f.connect({leaf1, 4}, {spine2, 1});
    f.connect({leaf2, 4}, {spine2, 2});
  }
};

std::vector<int> ports(const std::optional<DirectedRoute>& r) {
  if (!r) return {-1};
  return std::vector<int>(r->port.begin() + 1, r->port.begin() + 1 + r->hops);
}

TEST(DirectedRoute, TheShortestRouteLeavesByTheLocalPortAndEntersTheCaByThePortAsked) {
  Small s;
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, {}).to({s.h2, 1})), (std::vector<int>{1, 3, 2, 1}));
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, {}).to({s.h2, 2})), (std::vector<int>{1, 2}));
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, {}).to({s.leaf2, 5})), (std::vector<int>{1, 3, 2}));
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, {}).to({s.h1, 1})), std::vector<int>{});
}

TEST(DirectedRoute, APortSeenDownAtEitherEndIsRoutedAround) {
  Small s;
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, {{s.spine1, 2}}).to({s.h2, 1})), (std::vector<int>{1, 4, 2, 1}));
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, {{s.leaf2, 3}}).to({s.h2, 1})), (std::vector<int>{1, 4, 2, 1}));
  EXPECT_EQ(RoutesAround(s.f, {s.h1, 1}, {{s.spine1, 2}, {s.leaf2, 4}}).to({s.h2, 1}), std::nullopt);
  EXPECT_EQ(RoutesAround(s.f, {s.h1, 1}, {{s.h2, 1}}).to({s.h2, 1}), std::nullopt);  // its own link
}

TEST(DirectedRoute, RoutesDoNotCrossCas) {
  Small s;
  // Only h2 joins leaf1 to leaf2 once both spines' links to leaf2 are down.
  const PortKeySet down{{s.leaf2, 3}, {s.leaf2, 4}};
  EXPECT_EQ(RoutesAround(s.f, {s.h1, 1}, down).to({s.leaf2, 0}), std::nullopt);
  EXPECT_EQ(ports(RoutesAround(s.f, {s.h1, 1}, down).to({s.h2, 2})), (std::vector<int>{1, 2}));
}

TEST(DirectedRoute, FromASwitchsPortZeroTheFirstHopIsASwitchPort) {
  Small s;
  EXPECT_EQ(ports(RoutesAround(s.f, {s.spine1, 0}, {}).to({s.h1, 1})), (std::vector<int>{1, 1}));
  EXPECT_EQ(ports(RoutesAround(s.f, {s.spine1, 0}, {}).to({s.spine1, 3})), std::vector<int>{});
}

TEST(DirectedRoute, NoLocalPortInTheModelIsNoRoute) {
  Small s;
  EXPECT_EQ(RoutesAround(s.f, {}, {}).to({s.h2, 1}), std::nullopt);
  EXPECT_EQ(RoutesAround(s.f, {s.h1, 1}, {}).to({s.h2, 9}), std::nullopt);
}

}  // namespace
}  // namespace ibburn::topo
