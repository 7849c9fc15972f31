#pragma once
// Fluid model of a stage: max-min fair sharing of cable capacities among flows over
// their routed paths (progressive filling). Predicts each flow's throughput and each
// cable's load, optionally with degraded cables, without moving a byte.
#include <unordered_map>
#include <vector>

#include "routing/cable_index.h"
#include "routing/routing.h"

namespace ibburn::fluid {

struct FluidFlow {
  routing::PathShares path;  // edges and the flow's share on each
  double demand_gbps = 0;    // what the sender can push (its line rate)
};

// A flow as its router gives it (Router::route_split): flows towards the same switch are
// spread over that switch's split together, so no flow keeps its own path list (a flow
// under adaptive routing on a 32k-HCA fat tree crosses ~2,000 cable directions).
struct SplitFlow {
  routing::SplitRoute route;
  double demand_gbps = 0;
};

struct FluidResult {
  std::vector<double> flow_gbps;  // per flow
  std::vector<double> edge_gbps;  // per edge, total carried
};

// A flow from `src` to `dst` for the fluid model: its routed path, and its demand at the
// smaller line rate of the two HCA ports. Throws RoutingError when there is no route.
FluidFlow fluid_flow(const routing::CableIndex& cables, const routing::Router& router, topo::PortEnd src,
                     topo::PortEnd dst);
// The same flow with its route as the router splits it (for the fluid model at scale).
SplitFlow split_flow(const routing::CableIndex& cables, const routing::Router& router, topo::PortEnd src,
                     topo::PortEnd dst);

// `capacity_gbps` per edge.
FluidResult simulate_max_min(const std::vector<FluidFlow>& flows, const std::vector<double>& capacity_gbps);
// How split flows use their split. Fixed: always the router's fractions, so a flow stops as
// soon as any edge of its split is full (one slow cable slows every flow across it).
// Adaptive: as adaptive routing does, traffic added once an edge is full moves to the equal
// hops still open (SplitSpread with the full edges closed, a water-filling over the split),
// and a flow stops only when no open path is left: a slow next hop carries less and its
// siblings carry more.
enum class Splits { Fixed, Adaptive };

// The same model; `router` describes the flows' splits.
FluidResult simulate_max_min(const std::vector<SplitFlow>& flows, const routing::Router& router,
                             const std::vector<double>& capacity_gbps, Splits splits = Splits::Fixed);

// Edge capacities with some cables scaled, e.g. {edge: 0.25} for a cable at 25%.
std::vector<double> degraded_capacities(const routing::CableIndex& cables,
                                        const std::unordered_map<routing::EdgeId, double>& scale);

}  // namespace ibburn::fluid
