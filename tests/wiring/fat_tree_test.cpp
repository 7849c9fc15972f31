#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "common/error.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::wiring {
namespace {

// Checks what every fat-tree design must satisfy, from the cables alone, and returns the
// cable count per tier pair ("hca-leaf", "leaf-spine", "spine-core").
std::map<std::string, long> check_invariants(const FatTreeDesign& d) {
  std::unordered_map<std::string, const FatTreeSwitch*> sw;
  std::unordered_map<std::string, const FatTreeHca*> hca;
  std::unordered_set<uint64_t> guids;
  for (const auto& s : d.switches) {
    EXPECT_TRUE(sw.emplace(s.name, &s).second) << "duplicate name " << s.name;
    EXPECT_TRUE(guids.insert(s.guid).second) << "duplicate GUID " << s.name;
    EXPECT_EQ(s.ports, d.spec.radix);
  }
  for (const auto& h : d.hcas) {
    EXPECT_TRUE(hca.emplace(h.description, &h).second) << "duplicate HCA " << h.description;
    EXPECT_FALSE(sw.count(h.description));
    EXPECT_TRUE(guids.insert(h.guid).second) << "duplicate GUID " << h.description;
    EXPECT_TRUE(guids.insert(h.guid + 1).second) << "port GUID collides " << h.description;  // ibsim port 1
    EXPECT_EQ(h.description, h.host + " mlx5_" + std::to_string(h.hca));
  }
  EXPECT_EQ(d.hcas.size(), static_cast<size_t>(d.spec.hosts) * d.spec.hcas_per_host);

  std::set<std::pair<std::string, int>> used;
  std::map<std::string, long> per_tier;
  std::map<std::pair<std::string, std::string>, int> per_pair;
  // Union-find over node names: the design must be one fabric.
  std::unordered_map<std::string, std::string> parent;
  std::function<std::string(const std::string&)> find = [&](const std::string& x) -> std::string {
    auto it = parent.find(x);
    if (it == parent.end() || it->second == x) return x;
    return it->second = find(it->second);
  };
  for (const Cable& c : d.wiring.cables) {
    for (const CableEnd* e : {&c.a, &c.b}) {
      EXPECT_TRUE(used.insert({e->node, e->port}).second) << e->node << "[" << e->port << "] used twice";
      if (auto s = sw.find(e->node); s != sw.end()) {
        EXPECT_GE(e->port, 1);
        EXPECT_LE(e->port, d.spec.radix);
      } else {
        EXPECT_TRUE(hca.count(e->node)) << "unknown node " << e->node;
        EXPECT_EQ(e->port, 1);
      }
    }
    EXPECT_EQ(c.rate, std::optional<topo::LinkRate>(d.spec.rate));
    parent[find(c.a.node)] = find(c.b.node);
    auto tier_of = [&](const std::string& n) -> std::string {
      auto s = sw.find(n);
      return s == sw.end() ? "hca" : to_string(s->second->tier);
    };
    std::string ta = tier_of(c.a.node), tb = tier_of(c.b.node);
    per_tier[ta + "-" + tb]++;
    if (ta != "hca") {
      const FatTreeSwitch& a = *sw[c.a.node];
      const FatTreeSwitch& b = *sw[c.b.node];
      if (b.tier == Tier::Spine) {
        EXPECT_EQ(a.pod, b.pod) << "leaf-spine cable across pods";
      }
      // Lower tier ends use the upper half of their ports, upper ends the lower half.
      EXPECT_GT(c.a.port, d.spec.radix / 2);
      if (b.tier == Tier::Spine && d.shape.tiers == 3) {
        EXPECT_LE(c.b.port, d.spec.radix / 2);
      }
      per_pair[{c.a.node, c.b.node}]++;
    } else {
      const FatTreeHca& h = *hca[c.a.node];
      const FatTreeSwitch& leaf = *sw[c.b.node];
      EXPECT_EQ(leaf.tier, Tier::Leaf);
      EXPECT_EQ(leaf.pod, h.pod);
      EXPECT_LE(c.b.port, d.spec.radix / 2);
      if (d.spec.rail_optimized) {
        const int per_rail = d.shape.leaves_per_pod / d.spec.hcas_per_host;
        EXPECT_EQ(leaf.index / per_rail, h.hca) << h.description << " not on its rail";
      }
    }
  }
  std::set<std::string> roots;
  for (const auto& s : d.switches) roots.insert(find(s.name));
  for (const auto& h : d.hcas) roots.insert(find(h.description));
  EXPECT_EQ(roots.size(), 1u) << "design is not one fabric";
  for (const auto& [pair, n] : per_pair) {
    const FatTreeSwitch& b = *sw[pair.second];
    EXPECT_EQ(n, b.tier == Tier::Spine ? d.shape.leaf_spine_cables : d.shape.spine_core_cables)
        << pair.first << " - " << pair.second;
  }
  return per_tier;
}

TEST(FatTree, FieldNotesPresetHasTheClusterShape) {
  auto spec = fat_tree_preset("field-notes");
  ASSERT_TRUE(spec);
  FatTreeDesign d = generate_fat_tree(*spec);
  const FatTreeShape& sh = d.shape;
  EXPECT_EQ(sh.tiers, 3);
  EXPECT_EQ(sh.pods, 8);
  EXPECT_EQ(sh.leaves_per_pod, 16);
  EXPECT_EQ(sh.spines_per_pod, 16);
  EXPECT_EQ(sh.cores, 64);
  EXPECT_EQ(sh.leaf_spine_cables, 2);
  EXPECT_EQ(sh.spine_uplinks, 32);
  EXPECT_EQ(d.switches.size(), 320u);
  EXPECT_EQ(d.hcas.size(), 4088u);

  std::map<Tier, int> tiers;
  for (const auto& s : d.switches) tiers[s.tier]++;
  EXPECT_EQ(tiers[Tier::Leaf], 8 * 16);
  EXPECT_EQ(tiers[Tier::Spine], 8 * 16);
  EXPECT_EQ(tiers[Tier::Core], 64);

  auto per_tier = check_invariants(d);
  // From the field notes' rules: every leaf has 32 uplinks (2 to each of its pod's 16
  // spines), every spine 32 core uplinks.
  EXPECT_EQ(per_tier["hca-leaf"], 511 * 8);
  EXPECT_EQ(per_tier["leaf-spine"], 8 * 16 * 16 * 2);
  EXPECT_EQ(per_tier["spine-core"], 8 * 16 * 32);
  EXPECT_EQ(d.wiring.cables.size(), 4088u + 4096u + 4096u);  // "over 12,000 links"

  // Every core port is cabled: 64 cores x 64 ports = the 4096 spine uplinks.
  std::map<std::string, int> core_ports;
  for (const Cable& c : d.wiring.cables)
    if (c.b.node.starts_with("core")) core_ports[c.b.node]++;
  EXPECT_EQ(core_ports.size(), 64u);
  for (const auto& [core, n] : core_ports) EXPECT_EQ(n, 64) << core;
}

TEST(FatTree, FieldNotesNamesGuidsAndRails) {
  FatTreeDesign d = generate_fat_tree(*fat_tree_preset("field-notes"));
  EXPECT_EQ(d.switches.front().name, "pod1-leaf01");
  EXPECT_EQ(d.switches[16].name, "pod1-spine01");
  EXPECT_EQ(d.switches.back().name, "core64");
  EXPECT_EQ(d.hcas.front().description, "host001 mlx5_0");
  EXPECT_EQ(d.hcas.back().description, "host511 mlx5_7");
  EXPECT_EQ(d.switches.front().guid, 0x0002c90301010001ULL);
  EXPECT_EQ(d.switches.back().guid, 0x0002c90303000040ULL);
  EXPECT_EQ(d.hcas[3].guid, 0x0002c90400000006ULL);  // host001 mlx5_3

  // Rail-optimised: host001's 8 HCAs land on port 1 of leaves 1, 3, 5, .. 15 (2 per rail);
  // host033 (the pod's 33rd host) on port 1 of leaves 2, 4, .. 16.
  const Cable& first = d.wiring.cables[0];
  EXPECT_EQ(first.a, (CableEnd{"host001 mlx5_0", 1}));
  EXPECT_EQ(first.b, (CableEnd{"pod1-leaf01", 1}));
  EXPECT_EQ(d.wiring.cables[7].b, (CableEnd{"pod1-leaf15", 1}));
  EXPECT_EQ(d.wiring.cables[32 * 8 + 7].b, (CableEnd{"pod1-leaf16", 1}));
  EXPECT_EQ(d.wiring.cables[64 * 8].b, (CableEnd{"pod2-leaf01", 1}));
  // host511 is the 63rd host of pod 8.
  EXPECT_EQ(d.wiring.cables[510 * 8 + 1].b, (CableEnd{"pod8-leaf04", 31}));

  topo::NodeNameMap m = node_name_map(d);
  EXPECT_EQ(m.size(), 320u);
  ASSERT_TRUE(m.find(0x0002c90301010001ULL));
  EXPECT_EQ(*m.find(0x0002c90301010001ULL), "pod1-leaf01");
}

TEST(FatTree, PodsAloneDeriveTheFieldNotesShape) {
  FatTreeSpec s;
  s.hosts = 511;
  s.pods = 8;
  FatTreeDesign d = generate_fat_tree(s);
  EXPECT_EQ(d.shape.leaves_per_pod, 16);
  EXPECT_EQ(d.shape.spines_per_pod, 16);
  EXPECT_EQ(d.shape.cores, 64);
  EXPECT_EQ(to_csv(d.wiring), to_csv(generate_fat_tree(*fat_tree_preset("field-notes")).wiring));
}

TEST(FatTree, GenerationIsDeterministic) {
  FatTreeSpec s = *fat_tree_preset("field-notes");
  FatTreeDesign a = generate_fat_tree(s), b = generate_fat_tree(s);
  EXPECT_EQ(to_csv(a), to_csv(b));
  EXPECT_EQ(to_ibsim_netfile(a), to_ibsim_netfile(b));
  EXPECT_EQ(node_name_map(a).to_text(), node_name_map(b).to_text());
}

TEST(FatTree, LargeFabricsAreFullThreeTierTrees) {
  FatTreeSpec s;
  s.hosts = 4096;  // 32,768 HCAs
  FatTreeDesign d = generate_fat_tree(s);
  EXPECT_EQ(d.shape.pods, 32);
  EXPECT_EQ(d.shape.leaves_per_pod, 32);
  EXPECT_EQ(d.shape.spines_per_pod, 32);
  EXPECT_EQ(d.shape.cores, 512);
  EXPECT_EQ(d.shape.spine_core_cables, 2);
  EXPECT_EQ(d.switches.size(), 32u * 64 + 512);
  auto t = check_invariants(d);
  EXPECT_EQ(t["hca-leaf"], 32768);
  EXPECT_EQ(t["leaf-spine"], 32L * 32 * 32);
  EXPECT_EQ(t["spine-core"], 32L * 32 * 32);

  s.hosts = 8192;  // 65,536 HCAs: the largest non-blocking 3-tier tree of radix 64
  d = generate_fat_tree(s);
  EXPECT_EQ(d.shape.pods, 64);
  EXPECT_EQ(d.shape.cores, 1024);
  EXPECT_EQ(d.shape.spine_core_cables, 1);
  EXPECT_EQ(d.switches.size(), 64u * 64 + 1024);
  t = check_invariants(d);
  EXPECT_EQ(t["hca-leaf"], 65536);
  EXPECT_EQ(t["leaf-spine"], 65536);
  EXPECT_EQ(t["spine-core"], 65536);

  s.hosts = 8193;
  EXPECT_THROW(generate_fat_tree(s), Error);
}

TEST(FatTree, TwoTierDesigns) {
  FatTreeSpec s;
  s.tiers = 2;
  s.radix = 8;
  s.hosts = 6;
  s.hcas_per_host = 2;
  FatTreeDesign d = generate_fat_tree(s);
  // 2 rails x ceil(6 hosts / 4 ports) leaves = 4 leaves, 4 uplinks each; 4 leaves x c <= 8
  // spine ports gives 2 cables per pair, so 2 spines.
  EXPECT_EQ(d.shape.leaves_per_pod, 4);
  EXPECT_EQ(d.shape.spines_per_pod, 2);
  EXPECT_EQ(d.shape.leaf_spine_cables, 2);
  EXPECT_EQ(d.switches.size(), 6u);
  EXPECT_EQ(d.switches[0].name, "leaf01");
  EXPECT_EQ(d.switches[4].name, "spine01");
  auto t = check_invariants(d);
  EXPECT_EQ(t["hca-leaf"], 12);
  EXPECT_EQ(t["leaf-spine"], 16);
  EXPECT_EQ(t.count("spine-core"), 0u);

  s.hosts = 64 * 32 / 8;  // radix 64: 64 leaves x 32 HCAs at most
  s.radix = 64;
  s.hcas_per_host = 8;
  d = generate_fat_tree(s);
  EXPECT_EQ(d.shape.leaves_per_pod, 64);
  EXPECT_EQ(d.shape.spines_per_pod, 32);
  check_invariants(d);
  s.hosts += 1;
  try {
    generate_fat_tree(s);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), kExitInput);
    EXPECT_NE(std::string(e.what()).find("use --tiers 3"), std::string::npos) << e.what();
  }
}

TEST(FatTree, PackedLayoutKeepsAHostOnOneLeaf) {
  FatTreeSpec s;
  s.tiers = 2;
  s.radix = 16;
  s.hosts = 5;
  s.hcas_per_host = 4;
  s.rail_optimized = false;
  FatTreeDesign d = generate_fat_tree(s);
  check_invariants(d);
  for (int h = 0; h < 5; ++h)
    for (int k = 0; k < 4; ++k) {
      const Cable& c = d.wiring.cables[h * 4 + k];
      EXPECT_EQ(c.b.node, h < 2 ? "leaf01" : h < 4 ? "leaf02" : "leaf03");
      EXPECT_EQ(c.b.port, (h % 2) * 4 + k + 1);
    }
}

TEST(FatTree, ExplicitCountsAndTheirErrors) {
  FatTreeSpec s;
  s.radix = 16;
  s.hosts = 10;
  s.hcas_per_host = 2;
  s.leaves_per_pod = 4;
  s.spines_per_pod = 4;
  FatTreeDesign d = generate_fat_tree(s);  // 3 tiers: pods of 4 leaves x 8 ports / 2 rails
  EXPECT_EQ(d.shape.hosts_per_pod, 16);
  EXPECT_EQ(d.shape.pods, 1);
  EXPECT_EQ(d.shape.leaf_spine_cables, 2);
  EXPECT_EQ(d.shape.cores, 4);  // one pod: each core takes 8 cables from its spine
  check_invariants(d);

  auto message = [](FatTreeSpec spec) {
    try {
      generate_fat_tree(spec);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), kExitInput);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Each case changes the good spec one way and names the rule it breaks.
  const std::vector<std::pair<std::function<void(FatTreeSpec&)>, std::string>> cases = {
      {[](FatTreeSpec& x) { x.leaves_per_pod = 3; },
       "rail-optimised pods need a multiple of 2 leaves (one group per rail), not 3"},
      {[](FatTreeSpec& x) { x.spines_per_pod = 3; }, "8 leaf uplinks cannot be spread evenly over 3 spines"},
      {[](FatTreeSpec& x) { x.spines_per_pod = 1; }, "4 leaves x 8 cables exceed the 8 spine ports for leaves"},
      {[](FatTreeSpec& x) { x.tiers = 4; }, "tiers must be 2 or 3, not 4"},
      {[](FatTreeSpec& x) { x.radix = 7; }, "radix must be even, 4..254, not 7"},
      {[](FatTreeSpec& x) { x.pods = 1, x.hosts = 17; }, "1 pods of 16 hosts hold fewer than 17 hosts"},
      {[](FatTreeSpec& x) { x.cores = 3; }, "3 cores cannot form one plane per spine (4 spines per pod)"},
      {[](FatTreeSpec& x) { x.host_prefix = "a b"; },
       "host prefix must be non-empty without spaces, commas, quotes, '#', '@' or '='"},
      {[](FatTreeSpec& x) { x.hosts = 0; }, "hosts must be 1..16777216"},
      {[](FatTreeSpec& x) { x.tiers = 2, x.pods = 2; }, "pods need 3 tiers"},
  };
  for (const auto& [change, why] : cases) {
    FatTreeSpec bad = s;
    change(bad);
    EXPECT_EQ(message(bad), "fat tree: " + why);
  }
  EXPECT_FALSE(fat_tree_preset("nope"));
}

TEST(FatTree, DescribeSaysTheShape) {
  FatTreeDesign d = generate_fat_tree(*fat_tree_preset("field-notes"));
  EXPECT_EQ(describe(d),
            "3-tier fat tree, radix 64: 8 pods x (16 leaf + 16 spine), 64 core = 320 switches\n"
            "511 hosts x 8 HCAs = 4088 HCAs, rail-optimised, 4xNDR\n"
            "cables: 4088 HCA-leaf, 4096 leaf-spine (2 per pair), 4096 spine-core (8 per pair, 4 cores per "
            "plane) = 12280 cables\n");
  std::string csv = to_csv(d);
  EXPECT_TRUE(csv.starts_with("# wiring plan written by ibburn wiring gen fat-tree\n# 3-tier fat tree"));
  EXPECT_EQ(parse_wiring_csv(csv, "gen").cables.size(), 12280u);
}

TEST(FatTree, PlanesAreOneFatTreePerRailWithTheirOwnSwitchesAndGuids) {
  FatTreeSpec s;
  s.tiers = 3, s.radix = 8, s.hosts = 12, s.hcas_per_host = 4, s.planes = 4;
  const FatTreeDesign d = generate_fat_tree(s);
  FatTreeSpec one = s;
  one.hcas_per_host = 1, one.planes = 0;
  const FatTreeDesign rail = generate_fat_tree(one);
  EXPECT_EQ(d.switches.size(), 4 * rail.switches.size());
  EXPECT_EQ(d.hcas.size(), 48u);
  EXPECT_EQ(d.wiring.cables.size(), 4 * rail.wiring.cables.size());
  EXPECT_EQ(d.wiring.planes(), 4);
  std::unordered_set<uint64_t> guids;
  for (const auto& sw : d.switches) {
    EXPECT_TRUE(guids.insert(sw.guid).second) << sw.name;
    EXPECT_TRUE(sw.name.starts_with("plane" + std::to_string(sw.plane) + "-")) << sw.name;
  }
  for (const auto& h : d.hcas) {
    EXPECT_TRUE(guids.insert(h.guid).second && guids.insert(h.guid + 1).second) << h.description;
    EXPECT_EQ(h.plane, h.hca + 1) << h.description;
  }
  // Each plane is its own network: HCA mlx5_k only on plane k+1's leaves.
  for (const Cable& c : d.wiring.cables) {
    if (!c.a.node.starts_with("host")) continue;
    EXPECT_TRUE(c.b.node.starts_with("plane" + std::to_string(c.plane) + "-")) << c.a.node << " - " << c.b.node;
  }
  const FatTreeDesign p3 = plane_design(d, 3);
  EXPECT_EQ(p3.switches.size(), rail.switches.size());
  EXPECT_EQ(p3.hcas.size(), 12u);
  EXPECT_EQ(p3.hcas.front().description, "host001 mlx5_2");
  EXPECT_EQ(p3.wiring.cables.size(), rail.wiring.cables.size());
  EXPECT_NE(describe(d).find("4 planes, one per rail, each its own subnet"), std::string::npos) << describe(d);
  const std::string csv = to_csv(d);
  EXPECT_EQ(parse_wiring_csv(csv, "gen").planes(), 4);
}

TEST(FatTree, PlanesAreOnePerRail) {
  FatTreeSpec s;
  s.tiers = 2, s.radix = 8, s.hosts = 4, s.hcas_per_host = 8, s.planes = 4;
  try {
    generate_fat_tree(s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "fat tree: planes are one per rail: --planes 4 needs 4 HCAs per host, not 8");
  }
}

}  // namespace
}  // namespace ibburn::wiring
