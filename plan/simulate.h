#pragma once
// A burn without bytes: every stage of a plan through the fluid model, flows judged slow
// against a threshold, and the slow flows localised to cables. When the plan's stages leave
// the culprit ambiguous, probe stages (plan/probes.h) are simulated too, as a real burn
// with --fabric runs them.
#include <string>
#include <unordered_map>
#include <vector>

#include "plan/cable_index.h"
#include "plan/fluid.h"
#include "plan/localize.h"
#include "plan/planner.h"
#include "plan/routing.h"

namespace ibburn::plan {

struct SimulatedFlow {
  int stage = 0;
  PlannedFlow flow;
  double expected_gbps = 0;
  double gbps = 0;
  bool slow = false;
};

struct SimulationReport {
  std::vector<SimulatedFlow> flows;
  std::vector<double> stage_aggregate_gbps;
  int probe_stages = 0;
  std::vector<Suspect> suspects;
};

struct SimulationOptions {
  double threshold = 0.9;  // slow below threshold x expected
  int max_probe_stages = 6;
};

SimulationReport simulate_plan(const topo::Fabric& fabric, const CableIndex& cables, const Router& router,
                               const std::vector<topo::PortEnd>& endpoints,
                               const std::vector<std::vector<PlannedFlow>>& stages,
                               const std::unordered_map<EdgeId, double>& degrade, const SimulationOptions& options);

// Observations for localisation from measured (or simulated) per-flow results.
std::vector<ObservedFlow> observe(const Router& router, const std::vector<topo::PortEnd>& endpoints,
                                  const std::vector<SimulatedFlow>& flows);

}  // namespace ibburn::plan
