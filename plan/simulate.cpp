#include "plan/simulate.h"

#include "localization/probes.h"

#include <algorithm>

namespace ibburn::plan {
namespace {

void run_stage(const routing::CableIndex& cables, const routing::Router& router,
               const std::vector<topo::PortEnd>& endpoints, const std::vector<planner::PlannedFlow>& flows, int stage,
               const std::vector<double>& capacity, double threshold, SimulationReport& report) {
  std::vector<fluid::SplitFlow> fluid;
  for (const planner::PlannedFlow& f : flows)
    fluid.push_back(fluid::split_flow(cables, router, endpoints[f.src], endpoints[f.dst]));
  fluid::FluidResult r = fluid::simulate_max_min(fluid, router, capacity);
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

std::vector<localization::ObservedFlow> observe(const routing::Router& router,
                                                const std::vector<topo::PortEnd>& endpoints,
                                                const std::vector<SimulatedFlow>& flows) {
  std::vector<localization::ObservedFlow> out(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    router.route(endpoints[flows[i].flow.src], endpoints[flows[i].flow.dst], out[i].path);
    out[i].slow = flows[i].slow;
  }
  return out;
}

SimulationReport simulate_plan(const topo::Fabric& fabric, const routing::CableIndex& cables,
                               const routing::Router& router, const std::vector<topo::PortEnd>& endpoints,
                               const std::vector<std::vector<planner::PlannedFlow>>& stages,
                               const std::unordered_map<routing::EdgeId, double>& degrade,
                               const SimulationOptions& options) {
  SimulationReport report;
  std::vector<double> capacity = fluid::degraded_capacities(cables, degrade);
  for (size_t s = 0; s < stages.size(); ++s)
    run_stage(cables, router, endpoints, stages[s], static_cast<int>(s), capacity, options.threshold, report);
  report.suspects = localization::localize(observe(router, endpoints, report.flows), cables.size());
  if (report.suspects.empty() || !localization::ambiguous(report.suspects)) return report;

  // Probe stages, as a follow-up burn would run them (localization/probes.h).
  localization::ProbeShifts shifts(planner::switch_order(fabric, endpoints));
  while (report.probe_stages < options.max_probe_stages) {
    localization::RankPairs used;
    std::vector<planner::PlannedFlow> slow;
    for (const auto& f : report.flows) {
      used.insert({f.flow.src, f.flow.dst});
      if (f.slow) slow.push_back(f.flow);
    }
    std::vector<planner::PlannedFlow> probe =
        localization::next_probe(report.suspects, slow, cables, router, endpoints, used, shifts);
    if (probe.empty()) break;
    run_stage(cables, router, endpoints, probe, static_cast<int>(stages.size()) + report.probe_stages, capacity,
              options.threshold, report);
    ++report.probe_stages;
    report.suspects = localization::localize(observe(router, endpoints, report.flows), cables.size());
    if (!localization::ambiguous(report.suspects)) break;
  }
  return report;
}

}  // namespace ibburn::plan
