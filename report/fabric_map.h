#pragma once
// The fabric map's layout, kept pure so it is tested on plain data: tiers by BFS distance
// from the HCAs, switches placed in rows, HCAs aggregated per leaf, each cable (and each
// bundle of parallel cables) coloured by the worst evidence on it. report/fabric_views.h
// builds the page's views (the whole fabric, each pod) from these.
#include <map>
#include <string>
#include <vector>

#include "report/run_data.h"
#include "topo/fabric.h"

namespace ibburn::report {

// Cable verdicts, best to worst; a bundle shows its worst.
enum class CableVerdict { Ok = 0, Unloaded, Slow, Degraded, Errors, Flapping, Miswired, Missing };
inline constexpr int kCableVerdicts = 8;
const char* to_string(CableVerdict v);  // "ok", "unloaded", ... (CSS classes, the page's data)
const char* label(CableVerdict v);      // the legend's words: "errors under load", ...
const char* colour(CableVerdict v);     // CSS colour

// What the run says about one port ("node[port]").
struct PortEvidence {
  CableVerdict verdict = CableVerdict::Ok;
  bool suspect = false;               // a localisation (flows or port counters) names its cable
  std::vector<std::string> evidence;  // "kind: message" of each finding about it, worst first
};

// From the run's findings (the job's one list, else topo, counters and host; a systemic
// finding's own cables count one by one), the burn's endpoint verdicts and suspect cables.
std::map<std::string, PortEvidence> port_evidence(const RunData& run);
// "node[port]", the key of port_evidence.
std::string port_key(const std::string& node, int port);

// One cable (or bundle) judged by both ends: the worst verdict, and whether an end is a suspect.
struct CableJudgement {
  CableVerdict verdict = CableVerdict::Ok;
  bool suspect = false;
  void add(const CableJudgement& other);
};
CableJudgement judge_cable(const std::map<std::string, PortEvidence>& ports, const PortRef& a, const PortRef& b);

// Planned cables a topo check found missing (they are not in the fabric to draw).
std::vector<std::pair<PortRef, PortRef>> missing_cables(const RunData& run);

// Tier per node: 0 HCAs, 1 leaf, 2 spine, 3+ core (BFS hops from the nearest HCA);
// -1 for nodes no HCA reaches.
std::vector<int> node_tiers(const topo::Fabric& fabric);

struct MapBox {
  std::string name;  // switch name, or "<leaf> HCAs" for an aggregate
  int tier = 0;
  double x = 0, y = 0;
  int hcas = 0;                             // HCAs in an aggregate box; 0 for a switch
  CableVerdict verdict = CableVerdict::Ok;  // worst of its cables (an aggregate: its HCA cables)
  std::string leaf;                         // an aggregate's leaf
  bool suspect = false;                     // one of its cables is a suspect
};

MapBox switch_box(const std::string& name, int tier, double x, double y);
// The box of a leaf's HCAs, judged by their cables (hcas 0: the leaf has none).
MapBox hcas_box(const topo::Fabric& fabric, topo::NodeId leaf, double x, double y,
                const std::map<std::string, PortEvidence>& ports);

struct MapEdge {
  size_t a = 0, b = 0;  // box indices
  int cables = 0;
  CableVerdict verdict = CableVerdict::Ok;
  bool planned_only = false;  // a missing cable: drawn dashed
  bool suspect = false;       // outlined
  // The whole fabric's view: all of box a's cables to higher tiers as one line up to the bus
  // at this height (b unused), so the view stays one line per switch at any size.
  double bus_y = -1;
};

// The line from a leaf to its HCAs' box.
MapEdge hcas_edge(size_t leaf_box, size_t hcas_box, const MapBox& hcas);

// A pod's frame in the whole fabric's view (click: the pod's own view).
struct MapFrame {
  std::string name;
  int pod = 0;
  double x = 0, y = 0, w = 0, h = 0;
  CableVerdict verdict = CableVerdict::Ok;
};

// A horizontal bus the uplink lines of one row end on.
struct MapBus {
  double x1 = 0, x2 = 0, y = 0;
};

struct FabricMap {
  std::vector<MapBox> boxes;
  std::vector<MapEdge> edges;
  std::vector<MapFrame> frames;
  std::vector<MapBus> buses;
  double width = 0, height = 0;
};

// Every cable of the included nodes drawn: rows core (top) .. leaf, the HCAs of each included
// leaf as one box under it, parallel cables between two switches as one bundle. `include`
// (by node id; empty: every node) selects the switches drawn.
FabricMap layout_fabric(const topo::Fabric& fabric, const std::map<std::string, PortEvidence>& ports,
                        const std::vector<std::pair<PortRef, PortRef>>& missing, const std::vector<bool>& include = {});

}  // namespace ibburn::report
