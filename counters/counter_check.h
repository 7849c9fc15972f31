#pragma once
// Verdicts on a sweep: ports whose error counters exceed their thresholds (`errors`),
// counters pinned at their maximum (`saturated`: they stopped counting, clear them), and
// ports whose PMA did not answer (`unreachable`). With a baseline, thresholds apply to the
// rise since the baseline instead of the cumulative values.
#include <vector>

#include "common/finding.h"
#include "counters/counter_delta.h"
#include "counters/port_counters.h"
#include "counters/thresholds.h"

namespace ibburn::counters {

std::vector<Finding> check_snapshot(const Snapshot& now, const Thresholds& thresholds);
// `deltas` from compute_deltas(baseline, now).
std::vector<Finding> check_deltas(const Snapshot& now, const std::vector<PortDelta>& deltas,
                                  const Thresholds& thresholds);

// The pieces, for watch mode and tests.
std::vector<Finding> saturated_findings(const Snapshot& now);
std::vector<Finding> unreachable_findings(const Snapshot& now);

}  // namespace ibburn::counters
