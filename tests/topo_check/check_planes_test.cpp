// Planes on plain data: a design of four planes (one per rail) discovered as four snapshots,
// one per subnet, then merged as `--fabric` merges them; each plane's faults told once, naming
// the plane.
#include <gtest/gtest.h>

#include <map>

#include "common/finding_details.h"
#include "tests/topo_check/fabric_builder.h"
#include "topo/fabric_merge.h"
#include "topo_check/check_planes.h"
#include "topo_check/topo_check.h"
#include "wiring/fat_tree.h"

namespace ibburn::topo {
namespace {

using testing::build_fabric;
using testing::BuiltFabric;

wiring::FatTreeDesign four_planes(int tiers = 2) {
  wiring::FatTreeSpec s;
  s.tiers = tiers;
  s.radix = 8;
  s.hosts = tiers == 2 ? 8 : 12;
  s.hcas_per_host = 4;
  s.planes = 4;
  if (tiers == 2) s.spines_per_pod = 2;  // one spine less halves a plane, not splits it
  s.rate = {Width::X4, Speed::HDR};
  return wiring::generate_fat_tree(s);
}

std::map<std::string, int> kinds(const std::vector<Finding>& fs) {
  std::map<std::string, int> k;
  for (const auto& f : fs) ++k[to_string(f.kind)];
  return k;
}

std::string dump(const std::vector<Finding>& fs) { return findings_to_json(fs).dump(1); }

const Finding& only(const std::vector<Finding>& fs, FindingKind kind) {
  for (const Finding& f : fs)
    if (f.kind == kind) return f;
  throw std::runtime_error(std::string("no ") + to_string(kind) + " in " + dump(fs));
}

// One snapshot per island (a plane each, when cabled as designed), as one discovery per plane
// writes them, merged.
Fabric per_plane_snapshots(const Fabric& f) {
  std::vector<Fabric> snaps;
  for (const auto& island : f.islands()) {
    snaps.push_back(testing::island_snapshot(f, island));
    Fabric& s = snaps.back();
    Subnet& sub = s.subnets().emplace_back();
    sub.source = "snapshot " + std::to_string(snaps.size());
    sub.prefix = 0xfe80000000000000ULL + snaps.size();  // each plane its own
    for (NodeId n = 0; n < s.size(); ++n) s.node(n).subnet = 0;
  }
  return merge_fabrics(std::move(snaps));
}

// The design cabled as planned, one snapshot per plane, each subnet told its plane.
Fabric clean_planes(const wiring::FatTreeDesign& d) {
  BuiltFabric b = build_fabric(d);
  b.map.apply(b.fabric);
  Fabric merged = per_plane_snapshots(b.fabric);
  topo_check::assign_planes(merged, d.wiring);
  return merged;
}

std::vector<Finding> check(BuiltFabric& b, const wiring::Wiring& plan) {
  b.map.apply(b.fabric);
  Fabric merged = per_plane_snapshots(b.fabric);
  return topo_check::check_topology(merged, plan, static_cast<int>(merged.subnets().size()), false).findings;
}

TEST(Planes, FourCleanPlanesHaveNoFindingAndEachSubnetIsItsPlane) {
  for (int tiers : {2, 3}) {
    const auto d = four_planes(tiers);
    SCOPED_TRACE(std::to_string(tiers) + " tiers");
    BuiltFabric b = build_fabric(d);
    b.map.apply(b.fabric);
    Fabric merged = per_plane_snapshots(b.fabric);
    ASSERT_EQ(merged.subnets().size(), 4u);
    EXPECT_EQ(dump(topo_check::check_topology(merged, d.wiring, 4, false).findings), dump({}));
    std::map<int, int> planes;
    for (const Subnet& s : merged.subnets()) ++planes[s.plane];
    EXPECT_EQ(planes, (std::map<int, int>{{1, 1}, {2, 1}, {3, 1}, {4, 1}}));
    const NodeId hca = *merged.find_name("host003 mlx5_2");
    EXPECT_EQ(merged.plane(hca), 3);
  }
}

TEST(Planes, AnHcaCabledIntoAnotherPlanesLeafIsOneCrossPlaneFinding) {
  const auto d = four_planes();
  // host005's mlx5_3 is unplugged, and host003's mlx5_2 (plane 3) went into the plane-4 leaf
  // port it left free.
  testing::BuildOptions o;
  o.omit = {"host005 mlx5_3"};
  BuiltFabric b = build_fabric(d, o);
  const auto& plan = d.wiring;
  auto leaf_of = [&](const std::string& hca) {
    for (const auto& c : plan.cables)
      if (c.a.node == hca) return c.b;
    throw std::runtime_error(hca);
  };
  const auto from = leaf_of("host003 mlx5_2"), to = leaf_of("host005 mlx5_3");
  testing::move_plug(b.fabric, b.at(from.node, from.port), b.at(to.node, to.port));
  const auto findings = check(b, plan);
  EXPECT_EQ(kinds(findings), (std::map<std::string, int>{{"cross_plane", 1}, {"missing_node", 1}})) << dump(findings);
  const Finding& f = only(findings, FindingKind::CrossPlane);
  const std::string landed = to.node + "[" + std::to_string(to.port) + "]";
  const std::string meant = from.node + "[" + std::to_string(from.port) + "]";
  EXPECT_EQ(f.message, "host003 mlx5_2[1] is cabled into plane 4, on " + landed +
                           "; the design puts it in plane 3, on " + meant + " (" + landed +
                           " is planned for host005 mlx5_3[1])");
  EXPECT_EQ(f.details["planned_plane"], 3);
  EXPECT_EQ(f.details["found_plane"], 4);
  EXPECT_EQ(f.ports.front(), (PortRef{"host003 mlx5_2", 1}));
}

TEST(Planes, TwoHcasOfAHostWithTheirPlugsExchangedAcrossPlanesAreOneFinding) {
  const auto d = four_planes();
  BuiltFabric b = build_fabric(d);
  testing::swap_peers(b.fabric, b.at("host002 mlx5_0", 1), b.at("host002 mlx5_1", 1));
  const auto findings = check(b, d.wiring);
  EXPECT_EQ(kinds(findings), (std::map<std::string, int>{{"cross_plane", 1}})) << dump(findings);
  EXPECT_NE(findings.front().message.find("each in the other's plane (1 and 2)"), std::string::npos)
      << findings.front().message;
}

TEST(Planes, APlaneWithASpineMissingIsOneFindingNamingThePlaneAndItsBandwidth) {
  const auto d = four_planes();
  testing::BuildOptions o;
  o.omit = {"plane2-spine01"};
  BuiltFabric b = build_fabric(d, o);
  const auto findings = check(b, d.wiring);
  EXPECT_EQ(kinds(findings), (std::map<std::string, int>{{"missing_node", 1}, {"plane_asymmetric", 1}}))
      << dump(findings);
  const Finding& f = only(findings, FindingKind::PlaneAsymmetric);
  const PlaneDetails pd = details_of<FindingKind::PlaneAsymmetric>(f);
  EXPECT_EQ(pd.plane, 2);
  EXPECT_DOUBLE_EQ(pd.bandwidth_fraction, 0.5);
  EXPECT_NE(f.message.find("plane 2"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("spine switches: "), std::string::npos) << f.message;
}

TEST(Planes, APlaneTrainedAtALowerRateIsOneCauseAndHalfTheBandwidth) {
  const auto d = four_planes();
  BuiltFabric b = build_fabric(d);
  for (const Link& l : b.fabric.links()) {
    const std::string& name =
        b.fabric.node(l.a.node).is_switch() ? b.fabric.node(l.a.node).description : b.fabric.node(l.b.node).description;
    if (name.rfind("plane3-", 0) != 0) continue;
    b.fabric.port(l.a).active = b.fabric.port(l.b).active = {Width::X4, Speed::EDR};
  }
  const auto findings = check(b, d.wiring);
  EXPECT_EQ(kinds(findings), (std::map<std::string, int>{{"plane_asymmetric", 1}, {"systemic", 1}})) << dump(findings);
  const PlaneDetails pd = details_of<FindingKind::PlaneAsymmetric>(only(findings, FindingKind::PlaneAsymmetric));
  EXPECT_EQ(pd.plane, 3);
  EXPECT_DOUBLE_EQ(pd.bandwidth_fraction, 0.5);
  EXPECT_NE(only(findings, FindingKind::Systemic).message.find("plane 3"), std::string::npos)
      << only(findings, FindingKind::Systemic).message;
}

TEST(Planes, TwoPlanesSharingASubnetPrefixAreAnError) {
  const auto d = four_planes();
  Fabric merged = clean_planes(d);
  for (Subnet& s : merged.subnets())
    if (s.plane == 2 || s.plane == 4) s.prefix = 0xfe80000000000000ULL;
  const auto findings = topo_check::check_planes(merged, d.wiring);
  ASSERT_EQ(kinds(findings), (std::map<std::string, int>{{"plane_prefix", 1}})) << dump(findings);
  EXPECT_EQ(findings.front().details["planes"], nlohmann::json::array({2, 4}));
  EXPECT_NE(findings.front().message.find("planes 2, 4 share the subnet prefix 0xfe80000000000000"), std::string::npos)
      << findings.front().message;
}

TEST(Planes, APlaneWhoseSmDoesNotAnswerAsMasterIsNoSmNamingThePlane) {
  const auto d = four_planes();
  Fabric merged = clean_planes(d);
  for (Subnet& s : merged.subnets()) {
    s.sm_probed = true;
    s.sm_master = s.plane != 3;
    s.sm_guid = 0x100 + s.plane;
    s.sm_lid = 1;
  }
  const auto findings = topo_check::check_planes(merged, d.wiring);
  ASSERT_EQ(kinds(findings), (std::map<std::string, int>{{"no_sm", 1}})) << dump(findings);
  EXPECT_EQ(findings.front().details["plane"], 3);
}

TEST(Planes, APlaneNoSourceReachedIsOnePlaneMissingWithWhyItsSourceFailed) {
  const auto d = four_planes();
  BuiltFabric b = build_fabric(d);
  b.map.apply(b.fabric);
  std::vector<Fabric> snaps;
  for (const auto& island : b.fabric.islands()) {
    if (snaps.size() == 3) break;  // the last plane's source failed
    snaps.push_back(testing::island_snapshot(b.fabric, island));
    snaps.back().subnets().emplace_back().source = "p" + std::to_string(snaps.size());
    for (NodeId n = 0; n < snaps.back().size(); ++n) snaps.back().node(n).subnet = 0;
  }
  Fabric failed;
  Subnet& sub = failed.subnets().emplace_back();
  sub.source = "live:mlx5_9";
  sub.error = "no such HCA";
  snaps.push_back(std::move(failed));
  Fabric merged = merge_fabrics(std::move(snaps));
  const auto findings = topo_check::check_topology(merged, d.wiring, 4, false).findings;
  ASSERT_EQ(kinds(findings), (std::map<std::string, int>{{"plane_missing", 1}})) << dump(findings);
  const Finding& f = findings.front();
  EXPECT_EQ(details_of<FindingKind::PlaneMissing>(f).plane, 4);
  EXPECT_NE(f.message.find("live:mlx5_9 failed: no such HCA"), std::string::npos) << f.message;
}

TEST(Planes, APlanSplitInsideOnePlaneNamesThePlane) {
  const auto d = four_planes();
  BuiltFabric b = build_fabric(d);
  // Both uplinks of plane 1's first leaf unplugged: that leaf and its hosts are an island.
  for (const auto& c : d.wiring.cables)
    if (c.a.node == "plane1-leaf01" && c.b.node.find("spine") != std::string::npos)
      testing::unplug(b.fabric, b.at(c.a.node, c.a.port));
  const auto findings = check(b, d.wiring);
  const Finding& split = only(findings, FindingKind::Split);
  EXPECT_EQ(split.message.rfind("plane 1 is split into 2 disjoint islands", 0), 0u) << split.message;
}

TEST(Planes, APlanWithoutPlanesLeavesSubnetsAtPlaneZeroAndFindsNothingOfPlanes) {
  wiring::FatTreeSpec s;
  s.tiers = 2, s.radix = 8, s.hosts = 4, s.hcas_per_host = 2;
  const auto d = wiring::generate_fat_tree(s);
  BuiltFabric b = build_fabric(d);
  b.map.apply(b.fabric);
  topo_check::assign_planes(b.fabric, d.wiring);
  ASSERT_EQ(b.fabric.subnets().size(), 1u);  // one island
  EXPECT_EQ(b.fabric.subnets().front().plane, 0);
  EXPECT_TRUE(topo_check::check_planes(b.fabric, d.wiring).empty());
}

}  // namespace
}  // namespace ibburn::topo
