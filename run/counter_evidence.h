#pragma once
// The switches' own evidence about a burn stage (pure): which ports' error counters rose
// while the stage loaded them (`errors_under_load`), and whether every cable direction the
// routes load really carried that load on its switch port's data counter (`not_exercised`:
// the fabric routes differently from the model). Inputs are two counter snapshots around
// the stage and the bytes the ranks measured, spread over the modelled routes.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "burn/results.h"
#include "common/finding.h"
#include "counters/counter_delta.h"
#include "counters/thresholds.h"
#include "routing/route_model.h"

namespace ibburn::run {

// When a port's counters rising within one stage is a finding (docs/run.md, "Evidence").
struct LoadErrorRules {
  // The rise allowed per counter, in ibqueryerrors' threshold file format. A file names the
  // counters it checks (others get 0, as in ibqueryerrors); PortXmitWait, VL15Dropped and
  // QP1Dropped are never errors under load (congestion and management traffic).
  counters::Thresholds counts = default_counts();
  // Symbol errors per bit the port received in the window (IBTA's link BER objective).
  double max_symbol_ber = 1e-12;

  // Every error counter at 0 except SymbolErrorCounter, which the rate judges.
  static counters::Thresholds default_counts();
};

// Rank -> the HCA port it drove (from the endpoints' port GUIDs); ranks whose port is not in
// the fabric are left out (`missing` gets their ranks).
std::vector<std::optional<topo::PortEnd>> rank_ports(const topo::Fabric& fabric,
                                                     const std::vector<uint64_t>& port_guid_by_rank,
                                                     std::vector<int>* missing = nullptr);

// Octets each cable direction (by EdgeId) should have carried in the stage: every measured
// direction's bytes over its modelled route, split as the router splits it.
std::vector<double> expected_octets(const routing::RouteModel& model,
                                    const std::vector<std::optional<topo::PortEnd>>& ports_by_rank,
                                    const burn::StageResult& stage);

// Ports whose error counters rose past the rules in the window, each naming both ends of
// its cable, the rise, the bits the port received and sent, and the implied symbol error
// rate. `stage` is named in the messages.
std::vector<Finding> errors_under_load(const std::vector<counters::PortDelta>& deltas, const LoadErrorRules& rules,
                                       int stage);

// Octets each cable direction carried as its switch-side port counted them (PortXmitData
// out of a switch port, else PortRcvData into the switch); -1 where no data counter was read.
std::vector<double> seen_octets(const routing::RouteModel& model, const std::vector<counters::PortDelta>& deltas);

// Cable directions that carried less than `min_share` of what was expected. Directions
// expected to carry under `min_load` of their capacity over `seconds` are not judged (a
// route's edge traffic, not a planned load). Many at once are one finding: the routes differ.
std::vector<Finding> coverage_findings(const routing::RouteModel& model, const std::vector<double>& expected,
                                       const std::vector<double>& seen, double min_share, double seconds, int stage,
                                       double min_load = 0.1);

// The cable directions no stage expected any traffic on (no route between the ranks uses
// them), but those in `told` (a partial job's untested cables, run/job_scope.h): one info
// finding listing them, none when every direction was used.
std::vector<Finding> unused_directions(const routing::RouteModel& model, const std::vector<double>& expected_total,
                                       const std::set<routing::EdgeId>& told = {});

}  // namespace ibburn::run
