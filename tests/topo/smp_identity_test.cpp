// Live discovery's question for every answer whose GUID it knows: the node seen before, or
// another node with the same GUID (a cloned firmware image). ibsim refuses a netfile with
// a repeated GUID, so the walk cannot meet one in the simulator; the decision is tested here.
#include "topo/smp_identity.h"

#include <gtest/gtest.h>

namespace ibburn::topo {
namespace {

constexpr int kCa = 1;
constexpr int kSwitch = 2;

int add(SmpFabric& f, int type, uint64_t guid, int ports) {
  SmpNode& n = f.nodes.emplace_back();
  n.type = type;
  n.guid = guid;
  n.num_ports = ports;
  n.ports.resize(static_cast<size_t>(ports) + 1);
  return static_cast<int>(f.nodes.size()) - 1;
}

struct Twins {
  SmpFabric f;
  int sw = add(f, kSwitch, 0x10, 8);
  int hca = add(f, kCa, 0x20, 2);
  int sw_twin = add(f, kSwitch, 0x10, 8);  // a second switch with the first one's GUID
  Twins() { link_ports(f, sw, 1, hca, 1); }
};

TEST(KnownNode, TheSameCableFromItsOtherEndIsTheSameNode) {
  Twins t;
  const KnownNode k = known_node(t.f, {t.hca}, kCa, 2, 1, t.sw, 1);
  EXPECT_EQ(k.id, t.hca);
  EXPECT_TRUE(k.link);
}

TEST(KnownNode, AnotherPortOfItIsTheSameNode) {
  Twins t;
  const KnownNode k = known_node(t.f, {t.hca}, kCa, 2, 2, t.sw, 5);
  EXPECT_EQ(k.id, t.hca);
  EXPECT_TRUE(k.link);
}

TEST(KnownNode, APortCabledElsewhereIsAnotherNodeWithTheGuid) {
  Twins t;
  EXPECT_EQ(known_node(t.f, {t.hca}, kCa, 2, 1, t.sw, 2).id, -1);
}

TEST(KnownNode, AnotherTypeOrPortCountIsAnotherNode) {
  Twins t;
  EXPECT_EQ(known_node(t.f, {t.hca}, kSwitch, 2, 2, t.sw, 5).id, -1);
  EXPECT_EQ(known_node(t.f, {t.hca}, kCa, 1, 1, t.sw, 5).id, -1);
}

// Seen through a switch that is itself a GUID twin of the cable's far end, the node is the
// one known: kept, not relinked, so the twin does not copy the fabric behind it.
TEST(KnownNode, ReachedThroughAGuidTwinOfItsPeerIsTheSameNodeNotRelinked) {
  Twins t;
  const KnownNode k = known_node(t.f, {t.hca}, kCa, 2, 1, t.sw_twin, 1);
  EXPECT_EQ(k.id, t.hca);
  EXPECT_FALSE(k.link);
}

TEST(KnownNode, TheFirstMatchingOfSeveralTwinsIsTaken) {
  Twins t;
  const int clone = add(t.f, kCa, 0x20, 2);
  link_ports(t.f, t.sw, 2, clone, 1);
  EXPECT_EQ(known_node(t.f, {t.hca, clone}, kCa, 2, 1, t.sw, 2).id, clone);
  EXPECT_EQ(known_node(t.f, {t.hca, clone}, kCa, 2, 1, t.sw, 3).id, -1);
}

}  // namespace
}  // namespace ibburn::topo
