#pragma once
// The fabric map's layout, kept pure so it is tested on plain data: tiers by BFS distance
// from the HCAs, switches placed in rows, HCAs aggregated per leaf, each cable (and each
// bundle of parallel cables) coloured by its worst verdict.
#include <map>
#include <string>
#include <vector>

#include "report/run_data.h"
#include "topo/fabric.h"

namespace ibburn::report {

// Cable verdicts, best to worst; a bundle shows its worst.
enum class CableVerdict { Ok = 0, Slow, Errors, Flapping, Miswired, Missing };
const char* to_string(CableVerdict v);
const char* colour(CableVerdict v);  // CSS colour

// "node[port]" -> verdict, from topo and counters findings and burn endpoint verdicts.
std::map<std::string, CableVerdict> port_verdicts(const RunData& run);
// Planned cables a topo check found missing (they are not in the fabric to draw).
std::vector<std::pair<PortRef, PortRef>> missing_cables(const RunData& run);

// Tier per node: 0 HCAs, 1 leaf, 2 spine, 3+ core (BFS hops from the nearest HCA);
// -1 for nodes no HCA reaches.
std::vector<int> node_tiers(const topo::Fabric& fabric);

struct MapBox {
  std::string name;  // switch name, or "<leaf> HCAs" for an aggregate
  int tier = 0;
  double x = 0, y = 0;
  int hcas = 0;                             // HCAs in an aggregate box
  CableVerdict verdict = CableVerdict::Ok;  // worst of its HCA cables (aggregates)
};

struct MapEdge {
  size_t a = 0, b = 0;  // box indices
  int cables = 0;
  CableVerdict verdict = CableVerdict::Ok;
  bool planned_only = false;  // a missing cable: drawn dashed
};

struct HcaCable {  // drill-down row
  std::string hca_port, leaf_port;
  CableVerdict verdict = CableVerdict::Ok;
};

struct FabricMap {
  std::vector<MapBox> boxes;
  std::vector<MapEdge> edges;
  std::map<std::string, std::vector<HcaCable>> hcas_by_leaf;
  double width = 0, height = 0;
};

FabricMap layout_fabric(const topo::Fabric& fabric, const std::map<std::string, CableVerdict>& ports,
                        const std::vector<std::pair<PortRef, PortRef>>& missing);

}  // namespace ibburn::report
