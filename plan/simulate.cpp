#include "plan/simulate.h"

#include "plan/probes.h"

#include <algorithm>

namespace ibburn::plan {
namespace {

void run_stage(const CableIndex& cables, const Router& router, const std::vector<topo::PortEnd>& endpoints,
               const std::vector<PlannedFlow>& flows, int stage, const std::vector<double>& capacity, double threshold,
               SimulationReport& report) {
  std::vector<SplitFlow> fluid;
  for (const PlannedFlow& f : flows) fluid.push_back(split_flow(cables, router, endpoints[f.src], endpoints[f.dst]));
  FluidResult r = simulate_max_min(fluid, router, capacity);
  double total = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    SimulatedFlow f{stage, flows[i], fluid[i].demand_gbps, r.flow_gbps[i], false};
    f.slow = f.gbps < threshold * f.expected_gbps;
    total += f.gbps;
    report.flows.push_back(f);
  }
  report.stage_aggregate_gbps.push_back(total);
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

SimulationReport simulate_plan(const topo::Fabric& fabric, const CableIndex& cables, const Router& router,
                               const std::vector<topo::PortEnd>& endpoints,
                               const std::vector<std::vector<PlannedFlow>>& stages,
                               const std::unordered_map<EdgeId, double>& degrade, const SimulationOptions& options) {
  SimulationReport report;
  std::vector<double> capacity = degraded_capacities(cables, degrade);
  for (size_t s = 0; s < stages.size(); ++s)
    run_stage(cables, router, endpoints, stages[s], static_cast<int>(s), capacity, options.threshold, report);
  report.suspects = localize(observe(router, endpoints, report.flows), cables.size());
  if (report.suspects.empty() || !ambiguous(report.suspects)) return report;

  // Probe stages, as a follow-up burn would run them (plan/probes.h).
  ProbeShifts shifts(switch_order(fabric, endpoints));
  while (report.probe_stages < options.max_probe_stages) {
    RankPairs used;
    std::vector<PlannedFlow> slow;
    for (const auto& f : report.flows) {
      used.insert({f.flow.src, f.flow.dst});
      if (f.slow) slow.push_back(f.flow);
    }
    std::vector<PlannedFlow> probe = next_probe(report.suspects, slow, cables, router, endpoints, used, shifts);
    if (probe.empty()) break;
    run_stage(cables, router, endpoints, probe, static_cast<int>(stages.size()) + report.probe_stages, capacity,
              options.threshold, report);
    ++report.probe_stages;
    report.suspects = localize(observe(router, endpoints, report.flows), cables.size());
    if (!ambiguous(report.suspects)) break;
  }
  return report;
}

}  // namespace ibburn::plan
