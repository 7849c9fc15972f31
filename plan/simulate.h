#pragma once
// A burn without bytes: every stage of a plan through the fluid model, flows judged slow
// against a threshold, and the slow flows localised to cables. When the plan's stages leave
// the culprit ambiguous, probe stages (localization/probes.h) are simulated too, as a real burn
// with --fabric runs them.
#include <string>
#include <unordered_map>
#include <vector>

#include "routing/cable_index.h"
#include "fluid/fluid.h"
#include "localization/localize.h"
#include "planner/planner.h"
#include "routing/routing.h"

namespace ibburn::plan {

struct SimulatedFlow {
  int stage = 0;
  planner::PlannedFlow flow;
  double expected_gbps = 0;
  double gbps = 0;
  bool slow = false;
};

struct SimulationReport {
  std::vector<SimulatedFlow> flows;
  std::vector<double> stage_aggregate_gbps;
  int probe_stages = 0;
  std::vector<localization::Suspect> suspects;
};

struct SimulationOptions {
  double threshold = 0.9;  // slow below threshold x expected
  int max_probe_stages = 6;
};

SimulationReport simulate_plan(const topo::Fabric& fabric, const routing::CableIndex& cables,
                               const routing::Router& router, const std::vector<topo::PortEnd>& endpoints,
                               const std::vector<std::vector<planner::PlannedFlow>>& stages,
                               const std::unordered_map<routing::EdgeId, double>& degrade,
                               const SimulationOptions& options);

// Observations for localisation from measured (or simulated) per-flow results.
std::vector<localization::ObservedFlow> observe(const routing::Router& router,
                                                const std::vector<topo::PortEnd>& endpoints,
                                                const std::vector<SimulatedFlow>& flows);

}  // namespace ibburn::plan
