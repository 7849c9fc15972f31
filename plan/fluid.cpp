#include "plan/fluid.h"

#include <algorithm>
#include <limits>

namespace ibburn::plan {

std::vector<double> degraded_capacities(const CableIndex& cables, const std::unordered_map<EdgeId, double>& scale) {
  std::vector<double> cap(cables.size());
  for (EdgeId e = 0; e < cables.size(); ++e) {
    auto it = scale.find(e);
    cap[e] = cables.edge(e).capacity_gbps * (it == scale.end() ? 1.0 : it->second);
  }
  return cap;
}

FluidResult simulate_max_min(const std::vector<FluidFlow>& flows, const std::vector<double>& capacity) {
  const size_t nf = flows.size(), ne = capacity.size();
  FluidResult r;
  r.flow_gbps.assign(nf, 0.0);
  r.edge_gbps.assign(ne, 0.0);
  std::vector<char> active(nf, 1);
  size_t remaining = 0;
  for (size_t f = 0; f < nf; ++f) {
    if (flows[f].demand_gbps <= 0 || flows[f].path.empty())
      active[f] = 0;
    else
      ++remaining;
  }
  std::vector<double> weight(ne);
  constexpr double kEps = 1e-9;
  // Each round raises all active flows equally until an edge fills or a flow reaches its
  // demand, then freezes those flows. Rounds <= number of distinct bottlenecks.
  while (remaining > 0) {
    std::fill(weight.begin(), weight.end(), 0.0);
    for (size_t f = 0; f < nf; ++f)
      if (active[f])
        for (auto [e, share] : flows[f].path) weight[e] += share;
    double step = std::numeric_limits<double>::infinity();
    for (size_t e = 0; e < ne; ++e)
      if (weight[e] > kEps) step = std::min(step, std::max(0.0, capacity[e] - r.edge_gbps[e]) / weight[e]);
    for (size_t f = 0; f < nf; ++f)
      if (active[f]) step = std::min(step, flows[f].demand_gbps - r.flow_gbps[f]);
    for (size_t f = 0; f < nf; ++f) {
      if (!active[f]) continue;
      r.flow_gbps[f] += step;
      for (auto [e, share] : flows[f].path) r.edge_gbps[e] += step * share;
    }
    for (size_t f = 0; f < nf; ++f) {
      if (!active[f]) continue;
      bool frozen = r.flow_gbps[f] >= flows[f].demand_gbps - kEps;
      for (auto [e, share] : flows[f].path)
        if (share > kEps && r.edge_gbps[e] >= capacity[e] - 1e-7 * std::max(1.0, capacity[e])) frozen = true;
      if (frozen) active[f] = 0, --remaining;
    }
  }
  return r;
}

}  // namespace ibburn::plan
