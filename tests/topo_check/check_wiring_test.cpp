// topo::check on hand-built fabrics: one test per finding kind, each asserting the kind,
// the ports it names and that nothing else is reported.
#include "topo_check/check_wiring.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/topo_check/fabric_builder.h"
#include "topo/fabric_merge.h"

namespace ibburn::topo {
namespace {

using testing::build_fabric;
using testing::BuiltFabric;
using testing::make_plan;

// Two leaves, two spines, four HCAs.
wiring::Wiring mini_plan(const std::string& rate = "4xHDR") {
  return make_plan({{"h1 mlx5_0", 1, "leaf1", 1},
                    {"h2 mlx5_0", 1, "leaf1", 2},
                    {"h3 mlx5_0", 1, "leaf2", 1},
                    {"h4 mlx5_0", 1, "leaf2", 2},
                    {"leaf1", 3, "spine1", 1},
                    {"leaf1", 4, "spine2", 1},
                    {"leaf2", 3, "spine1", 2},
                    {"leaf2", 4, "spine2", 2}},
                   rate);
}

std::map<std::string, int> kinds(const std::vector<Finding>& fs) {
  std::map<std::string, int> k;
  for (const auto& f : fs) ++k[to_string(f.kind)];
  return k;
}

bool names_port(const Finding& f, const std::string& node, int port) {
  return std::find(f.ports.begin(), f.ports.end(), PortRef{node, port}) != f.ports.end();
}

TEST(TopoCheck, CleanFabricHasNoFinding) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  EXPECT_TRUE(topo_check::check_wiring(b.fabric, plan).empty());
}

TEST(TopoCheck, UnpluggedCableIsMissing) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::unplug(b.fabric, b.at("leaf1", 3));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::Missing);
  EXPECT_EQ(fs[0].severity, Severity::Error);
  EXPECT_TRUE(names_port(fs[0], "leaf1", 3));
  EXPECT_TRUE(names_port(fs[0], "spine1", 1));
  EXPECT_NE(fs[0].message.find("leaf1[3] - spine1[1]"), std::string::npos) << fs[0].message;
}

TEST(TopoCheck, UnplannedCableIsExtra) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  b.fabric.connect(b.at("leaf1", 5), b.at("spine2", 5));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::Extra);
  EXPECT_EQ(fs[0].severity, Severity::Warning);
  EXPECT_TRUE(names_port(fs[0], "leaf1", 5));
  EXPECT_TRUE(names_port(fs[0], "spine2", 5));
}

TEST(TopoCheck, CableOnWrongSpineIsMiswired) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::move_plug(b.fabric, b.at("spine1", 1), b.at("spine2", 7));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::Miswired);
  EXPECT_EQ(fs[0].message, "planned leaf1[3] - spine1[1], found leaf1[3] - spine2[7], spine1[1] unconnected");
  EXPECT_TRUE(names_port(fs[0], "spine2", 7));
}

TEST(TopoCheck, TwoCablesSwappedOnALeafAreOneFinding) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::swap_peers(b.fabric, b.at("leaf1", 1), b.at("leaf1", 2));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::Swapped);
  for (auto [n, p] :
       std::vector<std::pair<std::string, int>>{{"leaf1", 1}, {"leaf1", 2}, {"h1 mlx5_0", 1}, {"h2 mlx5_0", 1}})
    EXPECT_TRUE(names_port(fs[0], n, p)) << n;
  EXPECT_NE(fs[0].message.find("exchange the plugs in leaf1[1] and leaf1[2]"), std::string::npos) << fs[0].message;
}

TEST(TopoCheck, CrossedUplinksBetweenTwoSwitchesAreSwapped) {
  auto plan = make_plan({{"a", 1, "b", 1}, {"a", 2, "b", 2}, {"h mlx5_0", 1, "a", 3}});
  auto b = build_fabric(plan);
  testing::swap_peers(b.fabric, b.at("a", 1), b.at("a", 2));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::Swapped);
}

TEST(TopoCheck, ThreeWayRotationIsMiswiredNotSwapped) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  // h1 -> leaf1[2], h2 -> leaf2[1], h3 -> leaf1[1]
  auto& f = b.fabric;
  for (auto p : {b.at("leaf1", 1), b.at("leaf1", 2), b.at("leaf2", 1)}) f.disconnect(p);
  f.connect(b.at("h1 mlx5_0", 1), b.at("leaf1", 2));
  f.connect(b.at("h2 mlx5_0", 1), b.at("leaf2", 1));
  f.connect(b.at("h3 mlx5_0", 1), b.at("leaf1", 1));
  auto k = kinds(topo_check::check_wiring(f, plan));
  EXPECT_EQ(k["miswired"], 3);
  EXPECT_EQ(k.count("swapped"), 0u);
  EXPECT_EQ(k.size(), 1u);
}

TEST(TopoCheck, LinkAt1xIsDegradedBelowThePlan) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  for (auto p : {b.at("leaf1", 3), b.at("spine1", 1)}) b.fabric.port(p).active.width = Width::X1;
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::Degraded);
  EXPECT_EQ(fs[0].severity, Severity::Error);
  EXPECT_EQ(fs[0].message, "leaf1[3] - spine1[1] runs at 1xHDR, planned 4xHDR");
}

TEST(TopoCheck, WithoutPlannedRateDegradedMeansBelowBothEnds) {
  auto plan = mini_plan("");
  auto b = build_fabric(plan);
  // One end trained slower: the link runs at the lower speed.
  b.fabric.port(b.at("leaf2", 4)).active.speed = Speed::EDR;
  // Ends that support different rates: the common capability is the lower one, no finding.
  b.fabric.port(b.at("leaf1", 4)).supported = {Width::X4, Speed::NDR};
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::Degraded);
  EXPECT_EQ(fs[0].severity, Severity::Warning);
  EXPECT_EQ(fs[0].message, "leaf2[4] - spine2[2] runs at 4xEDR, both ends support 4xHDR");
  topo_check::CheckOptions quiet;
  quiet.below_supported = false;
  EXPECT_TRUE(topo_check::check_wiring(b.fabric, plan, quiet).empty());
}

TEST(TopoCheck, PlannedLinkUpButNotActiveIsPortNotActive) {
  auto plan = mini_plan();
  for (PortState state : {PortState::Init, PortState::Armed}) {
    auto b = build_fabric(plan);
    b.fabric.port(b.at("leaf2", 3)).state = state;
    auto fs = topo_check::check_wiring(b.fabric, plan);
    ASSERT_EQ(fs.size(), 1u);
    EXPECT_EQ(fs[0].kind, FindingKind::PortNotActive);
    EXPECT_EQ(fs[0].severity, Severity::Warning);
    EXPECT_TRUE(names_port(fs[0], "leaf2", 3));
    EXPECT_NE(fs[0].message.find(std::string("leaf2[3] ") + to_string(state) + "/LinkUp"), std::string::npos)
        << fs[0].message;
  }
}

TEST(TopoCheck, PlannedLinkPhysicallyDownIsPortDown) {
  auto plan = mini_plan();
  for (auto [state, phys] : {std::pair{PortState::Down, PhysState::Polling},
                             {PortState::Down, PhysState::Disabled},
                             {PortState::Init, PhysState::LinkErrorRecovery}}) {
    auto b = build_fabric(plan);
    b.fabric.port(b.at("leaf2", 3)).state = state;
    b.fabric.port(b.at("leaf2", 3)).phys = phys;
    auto fs = topo_check::check_wiring(b.fabric, plan);
    ASSERT_EQ(fs.size(), 1u);
    EXPECT_EQ(fs[0].kind, FindingKind::PortDown);
    EXPECT_EQ(fs[0].severity, Severity::Error);
    EXPECT_NE(fs[0].message.find(std::string("leaf2[3] ") + to_string(state) + "/" + to_string(phys)),
              std::string::npos)
        << fs[0].message;
  }
}

std::vector<NodeId> all_nodes(const Fabric& f) {
  std::vector<NodeId> ids(f.size());
  for (NodeId i = 0; i < f.size(); ++i) ids[i] = i;
  return ids;
}

TEST(TopoCheck, FabricWithoutSubnetManagerIsOneNoSmFinding) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::deactivate(b.fabric, all_nodes(b.fabric));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::NoSm);
  EXPECT_EQ(fs[0].severity, Severity::Error);
  EXPECT_EQ(exit_code_for(fs), 1);
  EXPECT_EQ(fs[0].message,
            "no active subnet manager in the fabric (4 switches, 4 HCAs): 8 of 8 cables are up but not "
            "activated; start a subnet manager that reaches it");
  EXPECT_EQ(fs[0].ports.size(), 4u);  // the switches
  EXPECT_TRUE(names_port(fs[0], "spine2", 0));
  // The per-port facts, one entry per cable.
  ASSERT_EQ(fs[0].details["not_active"].size(), 8u);
  EXPECT_EQ(fs[0].details["not_active"][0]["states"][0], "Initialize/LinkUp");
  EXPECT_EQ(fs[0].details["links"], 8);
}

TEST(TopoCheck, PhysicallyDownCableInAFabricWithoutSmIsStillPortDown) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::deactivate(b.fabric, all_nodes(b.fabric));
  b.fabric.port(b.at("leaf1", 4)).phys = PhysState::Disabled;
  b.fabric.port(b.at("leaf1", 4)).state = PortState::Down;
  auto fs = topo_check::check_wiring(b.fabric, plan);
  EXPECT_EQ(kinds(fs), (std::map<std::string, int>{{"no_sm", 1}, {"port_down", 1}}));
}

TEST(TopoCheck, AMinorityOfPortsNotActiveIsNoIslandWithoutSm) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  // 4 of 16 ports: not most of the island.
  testing::deactivate(b.fabric,
                      {b.id.at("h1 mlx5_0"), b.id.at("h2 mlx5_0"), b.id.at("h3 mlx5_0"), b.id.at("h4 mlx5_0")});
  EXPECT_EQ(kinds(topo_check::check_wiring(b.fabric, plan)), (std::map<std::string, int>{{"port_not_active", 4}}));
  // Dumps without port states (ibnetdiscover text) never look like a fabric without SM.
  for (NodeId n : all_nodes(b.fabric))
    for (Port& p : b.fabric.node(n).ports) p.state = PortState::Unknown, p.phys = PhysState::Unknown;
  EXPECT_TRUE(topo_check::check_wiring(b.fabric, plan).empty());
}

TEST(TopoCheck, DisabledPortsArePortDownNotMissing) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::unplug(b.fabric, b.at("leaf2", 4));
  b.fabric.port(b.at("leaf2", 4)).phys = PhysState::Disabled;
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::PortDown);
}

TEST(TopoCheck, HostNotInThePlanIsUnknownNode) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  NodeId x = b.fabric.add_node(NodeType::CA, 0x9999, "h9 mlx5_0", 1);
  b.fabric.connect({x, 1}, b.at("leaf1", 6));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::UnknownNode);
  EXPECT_EQ(fs[0].severity, Severity::Warning);
  EXPECT_TRUE(names_port(fs[0], "h9 mlx5_0", 0));
  EXPECT_TRUE(names_port(fs[0], "leaf1", 6));
}

// A ports report (ibnetdiscover -p) lists a switch by an unlinked port alone: not in a plan
// written from it, and with no cable to check it is told, not an error.
TEST(TopoCheck, AnUnplannedNodeWithNoLinkIsToldNotAnError) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  b.fabric.add_node(NodeType::Switch, 0x8888, "ib-i7l2s01", 80);
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::UnknownNode);
  EXPECT_EQ(fs[0].severity, Severity::Info);
  EXPECT_EQ(fs[0].message,
            "ib-i7l2s01 (Switch, GUID 0x0000000000008888) is not in the plan; it has no linked port, so no cable of it "
            "to check");
}

TEST(TopoCheck, AbsentHostIsMissingNode) {
  auto plan = mini_plan();
  testing::BuildOptions o;
  o.omit = {"h3 mlx5_0"};
  auto b = build_fabric(plan, o);
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::MissingNode);
  EXPECT_TRUE(names_port(fs[0], "h3 mlx5_0", 0));
  EXPECT_TRUE(names_port(fs[0], "leaf2", 1));
  EXPECT_NE(fs[0].message.find("leaf2[1] is unconnected"), std::string::npos) << fs[0].message;
}

TEST(TopoCheck, ReplacedHostIsMissingNodeMiswiredAndUnknown) {
  auto plan = mini_plan();
  testing::BuildOptions o;
  o.omit = {"h3 mlx5_0"};
  auto b = build_fabric(plan, o);
  NodeId x = b.fabric.add_node(NodeType::CA, 0x9999, "h9 mlx5_0", 1);
  b.fabric.connect({x, 1}, b.at("leaf2", 1));
  auto k = kinds(topo_check::check_wiring(b.fabric, plan));
  EXPECT_EQ(k, (std::map<std::string, int>{{"missing_node", 1}, {"miswired", 1}, {"unknown_node", 1}}));
}

TEST(TopoCheck, DuplicateGuidIsCritical) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  uint64_t g = b.fabric.node(b.id.at("h1 mlx5_0")).guid;
  NodeId x = b.fabric.add_node(NodeType::CA, g, "h1 clone", 1);
  b.fabric.connect({x, 1}, b.at("leaf1", 6));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  auto k = kinds(fs);
  EXPECT_EQ(k["duplicate_guid"], 1);
  for (const auto& f : fs)
    if (f.kind == FindingKind::DuplicateGuid) {
      EXPECT_EQ(f.severity, Severity::Critical);
      EXPECT_TRUE(names_port(f, "h1 mlx5_0", 0));
      EXPECT_TRUE(names_port(f, "h1 clone", 0));
    }
}

TEST(TopoCheck, TwoNodesWithOnePlannedNameAreDuplicateName) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  NodeId x = b.fabric.add_node(NodeType::CA, 0x7777, "h1 mlx5_0", 1);
  b.fabric.connect({x, 1}, b.at("leaf2", 6));
  auto fs = topo_check::check_wiring(b.fabric, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::DuplicateName);
  // Both are shown with their GUIDs so the site can tell them apart.
  EXPECT_TRUE(names_port(fs[0], "h1 mlx5_0 (0x0000000000007777)", 0));
}

TEST(TopoCheck, CutUplinksSplitTheFabricIntoTwoIslands) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  // leaf2's uplinks unplugged: leaf2 and its hosts form an island of their own.
  testing::unplug(b.fabric, b.at("leaf2", 3));
  testing::unplug(b.fabric, b.at("leaf2", 4));
  auto snap_a = testing::island_snapshot(
      b.fabric, {b.id.at("leaf1"), b.id.at("spine1"), b.id.at("spine2"), b.id.at("h1 mlx5_0"), b.id.at("h2 mlx5_0")});
  auto snap_b = testing::island_snapshot(b.fabric, {b.id.at("leaf2"), b.id.at("h3 mlx5_0"), b.id.at("h4 mlx5_0")});
  Fabric merged = merge_fabrics({snap_a, snap_b});
  auto fs = topo_check::check_wiring(merged, plan);
  auto k = kinds(fs);
  EXPECT_EQ(k["split"], 1);
  EXPECT_EQ(k["missing"], 2);
  for (const auto& f : fs)
    if (f.kind == FindingKind::Split) {
      EXPECT_EQ(f.severity, Severity::Critical);
      ASSERT_EQ(f.details["islands"].size(), 2u);
      EXPECT_EQ(f.details["islands"][0]["summary"], "1 leaf, 2 spine, 2 HCAs");
      EXPECT_EQ(f.details["islands"][1]["summary"], "1 leaf, 2 HCAs");
      EXPECT_EQ(f.details["joining_cables"].size(), 1u);
      EXPECT_EQ(f.details["crossing_cables"], 2);
    }
}

TEST(TopoCheck, SplitFabricWithSmInOneIslandIsSplitAndOneNoSm) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  testing::unplug(b.fabric, b.at("leaf2", 3));
  testing::unplug(b.fabric, b.at("leaf2", 4));
  // The SM sits in leaf1's island: leaf2's island stays Initialize.
  testing::deactivate(b.fabric, {b.id.at("leaf2"), b.id.at("h3 mlx5_0"), b.id.at("h4 mlx5_0")});
  auto fs = topo_check::check_wiring(b.fabric, plan);
  EXPECT_EQ(kinds(fs), (std::map<std::string, int>{{"split", 1}, {"missing", 2}, {"no_sm", 1}}));
  for (const auto& f : fs)
    if (f.kind == FindingKind::NoSm) {
      EXPECT_EQ(f.message,
                "no active subnet manager in an island of the fabric (1 switch, 2 HCAs: 1 leaf, 2 HCAs): 2 of 2 "
                "cables are up but not activated; start a subnet manager that reaches this island");
      EXPECT_EQ(f.details["summary"], "1 leaf, 2 HCAs");  // as in the split finding
      EXPECT_EQ(f.ports, (std::vector<PortRef>{{"leaf2", 0}}));
    }
}

TEST(TopoCheck, NodesBeyondTheVantagePointAreUnreached) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  // Discovery from h1 with a hop limit: spines report links it did not follow.
  auto snap = testing::island_snapshot(
      b.fabric, {b.id.at("leaf1"), b.id.at("spine1"), b.id.at("spine2"), b.id.at("h1 mlx5_0"), b.id.at("h2 mlx5_0")});
  for (auto name : {"spine1", "spine2"}) snap.node(*snap.find_name(name)).port(2)->peer_unreached = true;
  auto fs = topo_check::check_wiring(snap, plan);
  ASSERT_EQ(fs.size(), 1u) << fs[0].message;
  EXPECT_EQ(fs[0].kind, FindingKind::Unreached);
  EXPECT_EQ(fs[0].ports.size(), 3u);
  EXPECT_NE(fs[0].message.find("3 planned nodes not reached from this vantage point (1 leaf, 2 HCAs"),
            std::string::npos)
      << fs[0].message;
}

TEST(TopoCheck, NodeNamesFallBackToDescriptions) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  // A node-name-map that also names HCAs: the plan still uses their descriptions.
  Node& h = b.fabric.node(b.id.at("h1 mlx5_0"));
  h.name = "gpu-node-1";
  b.fabric.reindex_names();
  EXPECT_TRUE(topo_check::check_wiring(b.fabric, plan).empty());
}

TEST(FabricMerge, SnapshotsSharingNodesAreDedupedByGuid) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  auto left = testing::island_snapshot(b.fabric, {b.id.at("leaf1"), b.id.at("spine1"), b.id.at("h1 mlx5_0")});
  auto right = testing::island_snapshot(b.fabric, {b.id.at("spine1"), b.id.at("leaf2"), b.id.at("h3 mlx5_0")});
  Fabric m = merge_fabrics({left, right});
  EXPECT_EQ(m.size(), 5u);
  EXPECT_EQ(m.links().size(), 4u);
  EXPECT_EQ(m.islands().size(), 1u);
  EXPECT_TRUE(m.find_name("spine1").has_value());
}

TEST(FabricMerge, EarlierSnapshotWinsWhenPortsDisagree) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  auto before = testing::island_snapshot(b.fabric, {b.id.at("leaf1"), b.id.at("spine1"), b.id.at("spine2")});
  testing::move_plug(b.fabric, b.at("spine1", 1), b.at("spine1", 9));
  auto after = testing::island_snapshot(b.fabric, {b.id.at("leaf1"), b.id.at("spine1"), b.id.at("spine2")});
  Fabric m = merge_fabrics({before, after});
  NodeId s1 = *m.find_name("spine1");
  EXPECT_TRUE(m.node(s1).port(1)->linked());
  EXPECT_FALSE(m.node(s1).port(9)->linked());
}

TEST(FabricMerge, LinkSeenByAnotherSnapshotClearsPeerUnreached) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  auto near = testing::island_snapshot(b.fabric, {b.id.at("leaf1"), b.id.at("spine1")});
  near.node(*near.find_name("spine1")).port(2)->peer_unreached = true;
  auto far = testing::island_snapshot(b.fabric, {b.id.at("spine1"), b.id.at("leaf2")});
  Fabric m = merge_fabrics({near, far});
  const Port* p = m.node(*m.find_name("spine1")).port(2);
  EXPECT_TRUE(p->linked());
  EXPECT_FALSE(p->peer_unreached);
}

// Two HCAs flashed with one GUID, in two snapshots (islands, or planes): two nodes, reported,
// never one node standing for both.
TEST(FabricMerge, NodesSharingAGuidAcrossSnapshotsStayTwoAndAreReported) {
  auto plan = mini_plan();
  auto b = build_fabric(plan);
  auto left = testing::island_snapshot(b.fabric, {b.id.at("leaf1"), b.id.at("spine1"), b.id.at("h1 mlx5_0")});
  auto right = testing::island_snapshot(b.fabric, {b.id.at("leaf2"), b.id.at("h3 mlx5_0")});
  const uint64_t cloned = left.node(*left.find_name("h1 mlx5_0")).guid;
  right.node(*right.find_name("h3 mlx5_0")).guid = cloned;
  Fabric m = merge_fabrics({left, right});
  EXPECT_EQ(m.size(), 5u);
  ASSERT_EQ(m.duplicate_guids().size(), 1u);
  EXPECT_TRUE(m.node(*m.find_name("h3 mlx5_0")).port(1)->linked());
  EXPECT_EQ(kinds(topo_check::check_wiring(m, plan))["duplicate_guid"], 1);
}

}  // namespace
}  // namespace ibburn::topo
