#pragma once
// Test-only builders: a discovered fabric that matches a wiring plan exactly (every planned
// cable linked, Active/LinkUp at the planned rate), and the faults a recabling leaves behind.
#include <string>
#include <unordered_map>
#include <vector>

#include "topo/fabric.h"
#include "topo/node_name_map.h"
#include "wiring/fat_tree.h"
#include "wiring/wiring.h"

namespace ibburn::testing {

struct BuiltFabric {
  topo::Fabric fabric;
  topo::NodeNameMap map;                             // switch GUID -> planned name
  std::unordered_map<std::string, topo::NodeId> id;  // planned name -> node
  topo::PortEnd at(const std::string& name, int port) const { return {id.at(name), port}; }
};

struct BuildOptions {
  // Switches report 'Quantum-2 Mellanox Technologies' and no node-name-map is applied.
  bool generic_switch_descriptions = false;
  std::vector<std::string> omit;  // planned nodes left out (not discovered)
};

// Nodes named with a space ('h1 mlx5_0') are HCAs, the others switches. GUIDs come from
// `guids` when given, else are numbered from 0x1000.
BuiltFabric build_fabric(const wiring::Wiring& plan, const BuildOptions& options = {},
                         const std::unordered_map<std::string, uint64_t>& guids = {});
BuiltFabric build_fabric(const wiring::FatTreeDesign& design, const BuildOptions& options = {});
// The design's GUIDs by planned name (to build a fabric from a changed copy of its wiring).
std::unordered_map<std::string, uint64_t> design_guids(const wiring::FatTreeDesign& design);

// {a, a_port, b, b_port} rows, all at `rate` ("" = any).
wiring::Wiring make_plan(const std::vector<std::tuple<std::string, int, std::string, int>>& rows,
                         const std::string& rate = "4xHDR");

void unplug(topo::Fabric& f, topo::PortEnd p);                          // both ends go Down/Polling
void swap_peers(topo::Fabric& f, topo::PortEnd p, topo::PortEnd q);     // exchange the plugs in p and q
void move_plug(topo::Fabric& f, topo::PortEnd from, topo::PortEnd to);  // the plug in `from` goes to `to`
// Every linked port of `nodes` goes Initialize (still LinkUp), as where no subnet manager runs.
void deactivate(topo::Fabric& f, const std::vector<topo::NodeId>& nodes);

// A snapshot holding only `nodes` (and the links among them), as discovery from inside that
// island returns it.
topo::Fabric island_snapshot(const topo::Fabric& f, const std::vector<topo::NodeId>& nodes);

// The field-notes miswiring: every spine uplink of pod p lands on the 8 cores p, p+8, ...,
// so the top tier forms one disjoint network per pod.
wiring::Wiring split_top_tier(const wiring::FatTreeDesign& design);

}  // namespace ibburn::testing
