// topo::check and switch-name inference on generated fat trees: clean fabrics of every size,
// recabling faults with the real node-name-map and with inferred names, and the field notes'
// top tier wired into eight disjoint networks.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "tests/topo_check/fabric_builder.h"
#include "topo_check/check_wiring.h"
#include "topo_check/topo_check.h"
#include "topo/fabric_merge.h"
#include "wiring/fat_tree.h"
#include "wiring/name_inference.h"

namespace ibburn::topo {
namespace {

using testing::build_fabric;
using testing::BuiltFabric;

wiring::FatTreeSpec spec(int tiers, int radix, int hosts, int hcas) {
  wiring::FatTreeSpec s;
  s.tiers = tiers, s.radix = radix, s.hosts = hosts, s.hcas_per_host = hcas;
  s.rate = {Width::X4, Speed::HDR};
  return s;
}

std::map<std::string, int> kinds(const std::vector<Finding>& fs) {
  std::map<std::string, int> k;
  for (const auto& f : fs) ++k[to_string(f.kind)];
  return k;
}

std::string dump(const std::vector<Finding>& fs) { return findings_to_json(fs).dump(1); }

// Names the switches with the design's node-name-map.
std::vector<Finding> check_with_map(BuiltFabric b, const wiring::Wiring& plan) {
  b.map.apply(b.fabric);
  return topo_check::check_wiring(b.fabric, plan);
}

// Names the switches from the plan alone.
std::vector<Finding> check_inferred(BuiltFabric b, const wiring::Wiring& plan) {
  wiring::name_switches_from_plan(b.fabric, plan);
  return topo_check::check_wiring(b.fabric, plan);
}

TEST(TopoCheckFatTree, CleanFabricsOfEveryGeneratedSizeHaveNoFinding) {
  std::vector<wiring::FatTreeSpec> specs = {spec(2, 8, 4, 1),    spec(2, 16, 16, 4),
                                            spec(2, 64, 256, 8), spec(3, 8, 15, 2),
                                            spec(3, 16, 64, 4),  *wiring::fat_tree_preset("field-notes")};
  specs[1].rail_optimized = false;
  for (const auto& s : specs) {
    auto d = wiring::generate_fat_tree(s);
    SCOPED_TRACE(std::to_string(s.tiers) + " tiers, " + std::to_string(d.hcas.size()) + " HCAs");
    EXPECT_EQ(dump(check_with_map(build_fabric(d), d.wiring)), dump({}));
    testing::BuildOptions generic;
    generic.generic_switch_descriptions = true;
    EXPECT_EQ(dump(check_inferred(build_fabric(d, generic), d.wiring)), dump({}));
  }
}

TEST(TopoCheckFatTree, LargestGeneratedFabricsAreClean) {
  for (int hosts : {4096, 8192}) {  // 32k and 64k HCAs
    auto d = wiring::generate_fat_tree(spec(3, 64, hosts, 8));
    EXPECT_EQ(d.hcas.size(), static_cast<size_t>(hosts) * 8);
    EXPECT_EQ(dump(check_with_map(build_fabric(d), d.wiring)), dump({}));
  }
}

// A recabling fault, applied to a fabric built from the design.
struct Fault {
  std::string name;
  std::function<void(const wiring::FatTreeDesign&, BuiltFabric&)> apply;
  std::map<std::string, int> expect;
};

const wiring::FatTreeSwitch& sw(const wiring::FatTreeDesign& d, wiring::Tier t, int pod, int index) {
  for (const auto& s : d.switches)
    if (s.tier == t && s.pod == pod && s.index == index) return s;
  throw std::logic_error("no such switch");
}

std::vector<Fault> faults() {
  using wiring::Tier;
  return {
      {"clean", [](auto&, auto&) {}, {}},
      {"leaf-spine cable unplugged",
       [](auto& d, BuiltFabric& b) { testing::unplug(b.fabric, b.at(sw(d, Tier::Leaf, 0, 1).name, 5)); },
       {{"missing", 1}}},
      {"two host cables swapped on a leaf",
       [](auto& d, BuiltFabric& b) {
         auto& leaf = sw(d, Tier::Leaf, 1, 0).name;
         testing::swap_peers(b.fabric, b.at(leaf, 1), b.at(leaf, 2));
       },
       {{"swapped", 1}}},
      {"leaf-spine cable moved to a wrong spine",
       [](auto& d, BuiltFabric& b) {
         // The plug at spine 0 goes to spine 1's port of another leaf, whose cable hangs loose.
         auto leaf = b.at(sw(d, Tier::Leaf, 0, 0).name, 5);
         auto spine0 = b.fabric.port(leaf).remote;
         auto taken = b.at(sw(d, Tier::Spine, 0, 1).name, 3);
         testing::unplug(b.fabric, taken);
         testing::move_plug(b.fabric, spine0, taken);
       },
       {{"miswired", 2}}},
      {"link at 1x",
       [](auto& d, BuiltFabric& b) {
         auto p = b.at(sw(d, Tier::Spine, 1, 1).name, 6);
         b.fabric.port(p).active.width = Width::X1;
         b.fabric.port(b.fabric.port(p).remote).active.width = Width::X1;
       },
       {{"degraded", 1}}},
      {"host not in the plan",
       [](auto& d, BuiltFabric& b) {
         // The second pod is not full: its last leaf has free host ports.
         NodeId leaf = b.id.at(sw(d, Tier::Leaf, 1, 3).name);
         int free = 1;
         while (free < d.shape.host_ports_per_leaf && b.fabric.node(leaf).ports[free].linked()) ++free;
         ASSERT_FALSE(b.fabric.node(leaf).ports[free].linked());
         NodeId x = b.fabric.add_node(NodeType::CA, 0xabcdef, "intruder mlx5_0", 1);
         b.fabric.connect({x, 1}, {leaf, free});
       },
       {{"unknown_node", 1}}},
  };
}

TEST(TopoCheckFatTree, FaultsGiveTheSameFindingsWithInferredNamesAsWithTheMap) {
  // 2 pods; the second is not full, so leaves have free host ports.
  auto d = wiring::generate_fat_tree(spec(3, 8, 15, 2));
  testing::BuildOptions generic;
  generic.generic_switch_descriptions = true;
  for (const auto& fault : faults()) {
    SCOPED_TRACE(fault.name);
    BuiltFabric named = build_fabric(d);
    BuiltFabric anonymous = build_fabric(d, generic);
    fault.apply(d, named);
    fault.apply(d, anonymous);
    auto with_map = check_with_map(named, d.wiring);
    EXPECT_EQ(kinds(with_map), fault.expect) << dump(with_map);
    EXPECT_EQ(dump(check_inferred(anonymous, d.wiring)), dump(with_map));
  }
}

TEST(NameInference, RecoversEveryFieldNotesSwitchName) {
  auto d = wiring::generate_fat_tree(*wiring::fat_tree_preset("field-notes"));
  testing::BuildOptions generic;
  generic.generic_switch_descriptions = true;
  BuiltFabric b = build_fabric(d, generic);
  // A minority of miswired cables does not change the vote.
  auto leaf = b.at(sw(d, wiring::Tier::Leaf, 2, 3).name, 1);
  testing::swap_peers(b.fabric, leaf, b.at(sw(d, wiring::Tier::Leaf, 2, 4).name, 1));
  auto inf = wiring::infer_switch_names(b.fabric, d.wiring);
  EXPECT_TRUE(inf.unnamed.empty());
  ASSERT_EQ(inf.named.size(), d.switches.size());
  size_t unsure = 0;
  for (const auto& n : inf.named) {
    ASSERT_NE(b.map.find(n.guid), nullptr);
    EXPECT_EQ(*b.map.find(n.guid), n.name);
    if (n.confidence() < 1.0) ++unsure;
  }
  EXPECT_EQ(unsure, 2u);  // the two leaves with a swapped host cable
  std::string text = inf.to_text();
  EXPECT_NE(text.find("\"pod1-leaf01\" # confidence 1.00 (64 of 64)"), std::string::npos) << text.substr(0, 400);
  // The map it writes loads as a node-name-map.
  EXPECT_EQ(NodeNameMap::parse(text, "inferred").size(), d.switches.size());
}

// The field notes' failure: the top tier wired so that every pod only reaches its own cores.
struct SplitFabric {
  wiring::FatTreeDesign design = wiring::generate_fat_tree(*wiring::fat_tree_preset("field-notes"));
  BuiltFabric built;
  std::vector<std::vector<NodeId>> islands;
  explicit SplitFabric(bool generic) {
    testing::BuildOptions o;
    o.generic_switch_descriptions = generic;
    built = testing::build_fabric(testing::split_top_tier(design), o, testing::design_guids(design));
    islands = built.fabric.islands();
  }
  std::vector<Fabric> snapshots() const {
    std::vector<Fabric> s;
    for (const auto& island : islands) s.push_back(testing::island_snapshot(built.fabric, island));
    return s;
  }
};

const Finding* only(const std::vector<Finding>& fs, const std::string& kind) {
  const Finding* found = nullptr;
  for (const auto& f : fs)
    if (to_string(f.kind) == kind) {
      if (found) return nullptr;
      found = &f;
    }
  return found;
}

TEST(TopoCheckFatTree, TheSequenceNamesSwitchesFromThePlanThenChecks) {
  auto d = wiring::generate_fat_tree(spec(3, 8, 15, 2));
  testing::BuildOptions generic;
  generic.generic_switch_descriptions = true;
  BuiltFabric b = build_fabric(d, generic);
  topo_check::TopoCheck named = topo_check::check_topology(b.fabric, d.wiring, 1);
  EXPECT_EQ(dump(named.findings), dump({}));
  EXPECT_FALSE(named.names.named.empty());
  EXPECT_TRUE(b.fabric.find_name(named.names.named.front().name).has_value());  // the fabric keeps them

  BuiltFabric unnamed = build_fabric(d, generic);
  topo_check::TopoCheck as_found = topo_check::check_topology(unnamed.fabric, d.wiring, 1, false);
  EXPECT_TRUE(as_found.names.named.empty());
  EXPECT_GT(kinds(as_found.findings).count("unknown_node"), 0u) << dump(as_found.findings);
}

TEST(TopoCheckFatTree, FieldNotesTopTierMiswiredIntoEightNetworksIsOneSplit) {
  SplitFabric s(false);
  ASSERT_EQ(s.islands.size(), 8u);
  Fabric merged = merge_fabrics(s.snapshots());
  s.built.map.apply(merged);
  topo_check::CheckOptions o;
  o.vantage_points = 8;
  auto fs = topo_check::check_wiring(merged, s.design.wiring, o);
  const Finding* split = only(fs, "split");
  ASSERT_NE(split, nullptr) << kinds(fs).size();
  ASSERT_EQ(split->details["islands"].size(), 8u);
  EXPECT_EQ(split->details["islands"][0]["summary"], "pod1: 16 leaf, 16 spine, 512 HCAs; 8 core");
  EXPECT_EQ(split->details["islands"][7]["summary"], "pod8: 16 leaf, 16 spine, 504 HCAs; 8 core");
  EXPECT_EQ(split->details["joining_cables"].size(), 7u);
  EXPECT_EQ(split->details["crossing_cables"], 4096 - 512);
  auto k = kinds(fs);
  EXPECT_EQ(k.count("unreached"), 0u);
  EXPECT_EQ(k.count("unknown_node"), 0u);
  EXPECT_EQ(k.count("missing"), 0u);

  // The same from inferred names: one split with the same islands.
  SplitFabric anon(true);
  Fabric merged_anon = merge_fabrics(anon.snapshots());
  wiring::name_switches_from_plan(merged_anon, anon.design.wiring);
  auto fs_anon = topo_check::check_wiring(merged_anon, anon.design.wiring, o);
  const Finding* split_anon = only(fs_anon, "split");
  ASSERT_NE(split_anon, nullptr);
  EXPECT_EQ(split_anon->details["islands"], split->details["islands"]);
  EXPECT_EQ(split_anon->details["crossing_cables"], split->details["crossing_cables"]);
  EXPECT_EQ(kinds(fs_anon).count("unknown_node"), 0u);
}

TEST(TopoCheckFatTree, FieldNotesFabricWithoutSmIsOneNoSmFindingNotAPortDownFlood) {
  auto design = wiring::generate_fat_tree(*wiring::fat_tree_preset("field-notes"));
  BuiltFabric b = build_fabric(design);
  std::vector<NodeId> all(b.fabric.size());
  for (NodeId i = 0; i < all.size(); ++i) all[i] = i;
  testing::deactivate(b.fabric, all);
  auto fs = check_with_map(b, design.wiring);
  ASSERT_EQ(fs.size(), 1u) << kinds(fs).size();
  EXPECT_EQ(fs[0].kind, FindingKind::NoSm);
  EXPECT_NE(fs[0].message.find("the fabric (320 switches, 4088 HCAs): 12280 of 12280 cables"), std::string::npos)
      << fs[0].message;
  EXPECT_EQ(fs[0].details["not_active"].size(), 12280u);
}

TEST(TopoCheckFatTree, SplitFieldNotesFabricWithSmInOneIslandIsSplitAndSevenNoSm) {
  SplitFabric s(false);
  for (size_t k = 1; k < s.islands.size(); ++k) testing::deactivate(s.built.fabric, s.islands[k]);
  auto fs = check_with_map(s.built, s.design.wiring);
  auto k = kinds(fs);
  EXPECT_EQ(k["split"], 1);
  EXPECT_EQ(k["no_sm"], 7);
  EXPECT_EQ(k.count("port_down"), 0u);
  EXPECT_EQ(k.count("port_not_active"), 0u);
  // Each no_sm names its island as the split finding does.
  const Finding* split = only(fs, "split");
  ASSERT_NE(split, nullptr);
  for (const auto& f : fs)
    if (f.kind == FindingKind::NoSm) {
      bool found = false;
      for (const auto& island : split->details["islands"]) found |= island["summary"] == f.details["summary"];
      EXPECT_TRUE(found) << f.message;
    }
}

TEST(TopoCheckFatTree, OneSnapshotOfASplitFabricReportsTheRestUnreached) {
  SplitFabric s(false);
  Fabric mine = testing::island_snapshot(s.built.fabric, s.islands[0]);
  s.built.map.apply(mine);
  auto fs = topo_check::check_wiring(mine, s.design.wiring);
  EXPECT_EQ(kinds(fs).count("split"), 0u);
  const Finding* unreached = only(fs, "unreached");
  ASSERT_NE(unreached, nullptr);
  EXPECT_EQ(unreached->ports.size(), s.design.switches.size() + s.design.hcas.size() - s.islands[0].size());
  EXPECT_NE(unreached->message.find("pod8: 16 leaf, 16 spine, 504 HCAs; 56 core"), std::string::npos)
      << unreached->message;
}

}  // namespace
}  // namespace ibburn::topo
