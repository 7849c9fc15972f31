#include "plan/simulate.h"

#include <algorithm>
#include <set>

#include "plan/fluid.h"

namespace ibburn::plan {
namespace {

void run_stage(const CableIndex& cables, const Router& router,
               const std::vector<topo::PortEnd>& endpoints, const std::vector<Flow>& flows,
               int stage, const std::vector<double>& capacity, double threshold,
               SimulationReport& report) {
  std::vector<FluidFlow> fluid(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    topo::PortEnd s = endpoints[flows[i].src], d = endpoints[flows[i].dst];
    fluid[i].demand_gbps = std::min(cables.edge(cables.out_edge(s)).capacity_gbps,
                                    cables.edge(cables.out_edge(d)).capacity_gbps);
    router.route(s, d, fluid[i].path);
  }
  FluidResult r = simulate_max_min(fluid, capacity);
  double total = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    SimulatedFlow f{stage, flows[i], fluid[i].demand_gbps, r.flow_gbps[i], false};
    f.slow = f.gbps < threshold * f.expected_gbps;
    total += f.gbps;
    report.flows.push_back(f);
  }
  report.stage_aggregate_gbps.push_back(total);
}

// Below this a suspect shares the blame with other cables (ties) or with healthy traffic.
constexpr double kConfident = 0.75;

bool ambiguous(const std::vector<Suspect>& s) {
  return std::any_of(s.begin(), s.end(), [](const Suspect& x) { return x.confidence < kConfident; });
}

}  // namespace

std::vector<ObservedFlow> observe(const Router& router, const std::vector<topo::PortEnd>& endpoints,
                                  const std::vector<SimulatedFlow>& flows) {
  std::vector<ObservedFlow> out(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    router.route(endpoints[flows[i].flow.src], endpoints[flows[i].flow.dst], out[i].path);
    out[i].slow = flows[i].slow;
  }
  return out;
}

SimulationReport simulate_plan(const topo::Fabric& fabric, const CableIndex& cables,
                               const Router& router, const std::vector<topo::PortEnd>& endpoints,
                               const std::vector<std::vector<Flow>>& stages,
                               const std::unordered_map<EdgeId, double>& degrade,
                               const SimulationOptions& options) {
  SimulationReport report;
  std::vector<double> capacity = degraded_capacities(cables, degrade);
  for (size_t s = 0; s < stages.size(); ++s)
    run_stage(cables, router, endpoints, stages[s], static_cast<int>(s), capacity,
              options.threshold, report);
  report.suspects = localize(observe(router, endpoints, report.flows), cables.size());
  if (report.suspects.empty() || !ambiguous(report.suspects)) return report;

  // Probe: shifts of the endpoint order not used yet, each moving every flow to other
  // partners, so cables on a slow path get healthy evidence unless they are the culprit.
  std::set<std::pair<int, int>> used;
  for (const auto& f : report.flows) used.insert({f.flow.src, f.flow.dst});
  const int n = static_cast<int>(endpoints.size());
  const std::vector<int> order = switch_order(fabric, endpoints);
  for (int k = 1; k < n && report.probe_stages < options.max_probe_stages; ++k) {
    std::vector<Flow> probe;
    for (int i = 0; i < n; ++i) {
      Flow f{order[i], order[(i + k) % n]};
      if (!used.count({f.src, f.dst})) probe.push_back(f);
    }
    if (probe.size() < static_cast<size_t>(n) / 2) continue;  // mostly repeats an earlier stage
    for (const auto& f : probe) used.insert({f.src, f.dst});
    run_stage(cables, router, endpoints, probe,
              static_cast<int>(stages.size()) + report.probe_stages, capacity, options.threshold,
              report);
    ++report.probe_stages;
    report.suspects = localize(observe(router, endpoints, report.flows), cables.size());
    if (!ambiguous(report.suspects)) break;
  }
  return report;
}

}  // namespace ibburn::plan
