#include "fluid/fluid.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ibburn::fluid {

std::vector<double> degraded_capacities(const routing::CableIndex& cables,
                                        const std::unordered_map<routing::EdgeId, double>& scale) {
  std::vector<double> cap(cables.size());
  for (routing::EdgeId e = 0; e < cables.size(); ++e) {
    auto it = scale.find(e);
    cap[e] = cables.edge(e).capacity_gbps * (it == scale.end() ? 1.0 : it->second);
  }
  return cap;
}

namespace {

// Progressive filling. `router` spreads the flows' splits (null when there are none).
FluidResult max_min(const std::vector<SplitFlow>& flows, const routing::Router* router,
                    const std::vector<double>& capacity, Splits splits) {
  const size_t nf = flows.size(), ne = capacity.size();
  FluidResult r;
  r.flow_gbps.assign(nf, 0.0);
  r.edge_gbps.assign(ne, 0.0);
  std::vector<char> active(nf, 1);
  size_t remaining = 0;
  // Flows by the switch their split leads to: each round spreads one unit per active flow
  // from its entry switch down that switch's split, all flows towards it at once.
  std::map<topo::NodeId, std::vector<size_t>> by_split;
  for (size_t f = 0; f < nf; ++f) {
    const routing::SplitRoute& route = flows[f].route;
    if (flows[f].demand_gbps <= 0 || (route.edges.empty() && !route.split())) {
      active[f] = 0;
      continue;
    }
    ++remaining;
    if (route.split()) by_split[route.to].push_back(f);
  }
  std::vector<double> weight(ne);
  routing::SplitSpread spread;
  std::vector<std::pair<topo::NodeId, double>> entries;
  const bool adaptive = splits == Splits::Adaptive;
  std::vector<char> closed(adaptive ? ne : 0, 0);  // by edge: full, adaptive splits avoid it
  auto spread_active = [&](topo::NodeId to, const std::vector<size_t>& group) {
    entries.clear();
    for (size_t f : group)
      if (active[f]) entries.emplace_back(flows[f].route.from, 1.0);
    if (entries.empty()) return false;
    spread.spread(*router, to, entries, adaptive ? &closed : nullptr);
    return true;
  };
  constexpr double kEps = 1e-9;
  auto full = [&](routing::EdgeId e) { return r.edge_gbps[e] >= capacity[e] - 1e-7 * std::max(1.0, capacity[e]); };
  std::vector<char> blocked;  // by node: a split hop from it leads to a full edge
  std::vector<size_t> freeze;
  // Each round raises all active flows equally until an edge fills or a flow reaches its
  // demand, then freezes those flows. Rounds <= number of distinct bottlenecks.
  while (remaining > 0) {
    std::fill(weight.begin(), weight.end(), 0.0);
    for (size_t f = 0; f < nf; ++f)
      if (active[f])
        for (auto [e, share] : flows[f].route.edges) weight[e] += share;
    freeze.clear();
    if (adaptive)
      for (size_t e = 0; e < ne; ++e) closed[e] = full(static_cast<routing::EdgeId>(e));
    for (const auto& [to, group] : by_split)
      if (spread_active(to, group)) {
        for (const auto& c : spread.carried()) weight[c.edge] += c.gbps;
        // Adaptive: a flow whose entry has no open path left cannot grow.
        if (adaptive)
          for (size_t f : group)
            if (active[f] && spread.blocked(flows[f].route.from)) freeze.push_back(f);
      }
    if (!freeze.empty()) {
      for (size_t f : freeze)
        if (active[f]) active[f] = 0, --remaining;
      continue;
    }
    double step = std::numeric_limits<double>::infinity();
    for (size_t e = 0; e < ne; ++e)
      if (weight[e] > kEps) step = std::min(step, std::max(0.0, capacity[e] - r.edge_gbps[e]) / weight[e]);
    for (size_t f = 0; f < nf; ++f)
      if (active[f]) step = std::min(step, flows[f].demand_gbps - r.flow_gbps[f]);
    for (size_t f = 0; f < nf; ++f)
      if (active[f]) r.flow_gbps[f] += step;
    for (size_t e = 0; e < ne; ++e) r.edge_gbps[e] += step * weight[e];

    for (size_t f = 0; f < nf; ++f) {
      if (!active[f]) continue;
      bool frozen = r.flow_gbps[f] >= flows[f].demand_gbps - kEps;
      for (auto [e, share] : flows[f].route.edges)
        if (share > kEps && full(e)) frozen = true;
      if (frozen) freeze.push_back(f);
    }
    // A split flow stops when any edge of its split is full: every hop reachable from its
    // entry carries part of it. Farthest nodes are visited first, so walk them backwards.
    for (const auto& [to, group] : by_split) {
      if (adaptive || !spread_active(to, group)) continue;
      const auto& visits = spread.visits();
      const auto& carried = spread.carried();
      for (auto v = visits.rbegin(); v != visits.rend(); ++v) {
        bool b = false;
        for (size_t i = v->begin; i < v->end && !b; ++i)
          b = full(carried[i].edge) || (carried[i].next < blocked.size() && blocked[carried[i].next]);
        if (v->node >= blocked.size()) blocked.resize(v->node + 1, 0);
        blocked[v->node] = b;
      }
      for (size_t f : group)
        if (active[f] && blocked[flows[f].route.from]) freeze.push_back(f);
      for (const auto& v : visits) blocked[v.node] = 0;
    }
    for (size_t f : freeze)
      if (active[f]) active[f] = 0, --remaining;
  }
  return r;
}

}  // namespace

FluidResult simulate_max_min(const std::vector<FluidFlow>& flows, const std::vector<double>& capacity) {
  std::vector<SplitFlow> explicit_flows(flows.size());
  for (size_t f = 0; f < flows.size(); ++f) {
    explicit_flows[f].route.edges = flows[f].path;
    explicit_flows[f].demand_gbps = flows[f].demand_gbps;
  }
  return max_min(explicit_flows, nullptr, capacity, Splits::Fixed);
}

FluidResult simulate_max_min(const std::vector<SplitFlow>& flows, const routing::Router& router,
                             const std::vector<double>& capacity, Splits splits) {
  return max_min(flows, &router, capacity, splits);
}

namespace {

// The smaller line rate of the two HCA ports.
double demand(const routing::CableIndex& cables, topo::PortEnd src, topo::PortEnd dst) {
  return std::min(cables.edge(cables.out_edge(src)).capacity_gbps, cables.edge(cables.out_edge(dst)).capacity_gbps);
}

}  // namespace

FluidFlow fluid_flow(const routing::CableIndex& cables, const routing::Router& router, topo::PortEnd src,
                     topo::PortEnd dst) {
  FluidFlow f;
  f.demand_gbps = demand(cables, src, dst);
  router.route(src, dst, f.path);
  return f;
}

SplitFlow split_flow(const routing::CableIndex& cables, const routing::Router& router, topo::PortEnd src,
                     topo::PortEnd dst) {
  SplitFlow f;
  f.demand_gbps = demand(cables, src, dst);
  router.route_split(src, dst, f.route);
  return f;
}

}  // namespace ibburn::fluid
