#pragma once
// Fat-tree fabric designs: a pure generator of the switches, HCAs and cables of a 2- or
// 3-tier non-blocking fat tree (docs/wiring.md). Output writers: wiring/wiring.h (CSV),
// wiring/ibsim_netfile.h (simulator netfile), node_name_map() below.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topo/link_rate.h"
#include "topo/node_name_map.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {

enum class Tier : uint8_t { Leaf = 1, Spine = 2, Core = 3 };
const char* to_string(Tier t);  // "leaf", "spine", "core"

// What the user asks for; zero means "derive it" (rules in docs/wiring.md).
struct FatTreeSpec {
  int tiers = 3;   // 2: leaf-spine; 3: pods of leaf+spine under a core tier
  int radix = 64;  // ports per switch
  int hosts = 0;
  int hcas_per_host = 8;
  int pods = 0;                // 3 tiers only
  int leaves_per_pod = 0;      // 2 tiers: all leaves
  int spines_per_pod = 0;      // 2 tiers: all spines
  int cores = 0;               // 3 tiers only
  bool rail_optimized = true;  // HCA k of every host in a pod on the pod's rail-k leaves
  topo::LinkRate rate{topo::Width::X4, topo::Speed::NDR};
  std::string host_prefix = "host";
  // Several subnets, one per rail: 0 or 1, one subnet; N (= hcas_per_host), HCA k of every host
  // in plane k+1, each plane the fat tree of one HCA per host with its own switches (named
  // "plane3-pod1-leaf01") and its own subnet manager.
  int planes = 0;
};

// Named specs: "field-notes" = the 4,088-HCA cluster of the field notes.
std::optional<FatTreeSpec> fat_tree_preset(const std::string& name);
std::vector<std::string> fat_tree_preset_names();

// The resolved numbers of a design.
struct FatTreeShape {
  int tiers = 0, radix = 0;
  int pods = 0, leaves_per_pod = 0, spines_per_pod = 0, cores = 0;
  int host_ports_per_leaf = 0;  // leaf ports 1..this face HCAs; uplinks start at radix/2+1
  int leaf_spine_cables = 0;    // per leaf-spine pair
  int spine_uplinks = 0;        // per spine (3 tiers); spine uplinks start at radix/2+1
  int cores_per_plane = 0;      // spine s of every pod cables to core plane s
  int spine_core_cables = 0;    // per spine-core pair
  int hosts_per_pod = 0;        // capacity; hosts fill pods in order
};

struct FatTreeSwitch {
  std::string name;  // "pod1-leaf01", "pod1-spine01", "core01"; 2 tiers: "leaf01", "spine01"
  Tier tier = Tier::Leaf;
  int pod = -1;   // 0-based; -1 for core switches
  int index = 0;  // 0-based within its tier (and pod)
  uint64_t guid = 0;
  int ports = 0;
  int plane = 0;  // 1..N; 0 for a design of one subnet
};

struct FatTreeHca {
  std::string host;         // "host001"
  int host_index = 0;       // 0-based
  int hca = 0;              // k of mlx5_k, also its rail
  std::string description;  // NodeDescription, "host001 mlx5_0"
  uint64_t guid = 0;        // node GUID; its port 1 GUID is guid + 1 (as ibsim numbers them)
  int pod = 0;
  int plane = 0;  // 1..N; 0 for a design of one subnet
};

struct FatTreeDesign {
  FatTreeSpec spec;
  FatTreeShape shape;
  std::vector<FatTreeSwitch> switches;  // per pod: leaves, then spines; then cores
  std::vector<FatTreeHca> hcas;         // by host, then HCA
  Wiring wiring;                        // HCA-leaf cables, then leaf-spine, then spine-core; a = lower tier end
};

// Throws Error(kExitInput) naming the constraint when the spec cannot be built.
FatTreeDesign generate_fat_tree(const FatTreeSpec& spec);

// One plane of a design with several (1..spec.planes): its switches, HCAs and cables, as a
// design of one subnet (for its simulator netfile).
FatTreeDesign plane_design(const FatTreeDesign& design, int plane);

// Switch GUID -> name (HCAs are named by their descriptions already).
topo::NodeNameMap node_name_map(const FatTreeDesign& design);

// Several lines for people: shape, counts per tier, cables per tier; each line starts with
// `line_prefix` ("# " makes them comments in the CSV and netfile).
std::string describe(const FatTreeDesign& design, const std::string& line_prefix = "");

// The design's wiring CSV, headed by describe() as comments.
std::string to_csv(const FatTreeDesign& design);

}  // namespace ibburn::wiring
