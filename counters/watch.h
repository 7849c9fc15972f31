#pragma once
// Watch mode: repeated sweeps with port state, streaming what changed, and at the end (or
// on Ctrl-C) the verdicts: flapping links, error counters that rose beyond their thresholds
// over the window, saturated and unreachable ports.
#include <chrono>
#include <functional>
#include <vector>

#include "common/finding.h"
#include "counters/flap_detector.h"
#include "counters/port_counters.h"
#include "counters/sweep.h"
#include "counters/thresholds.h"

namespace ibburn::counters {

struct WatchOptions {
  std::chrono::milliseconds interval{10000};
  std::chrono::milliseconds duration{3600000};
  FlapRules rules;
};

struct WatchResult {
  Snapshot first, last;
  size_t sweeps = 0;
  bool interrupted = false;
  std::vector<Finding> findings;
};

// Verdicts over a finished (or interrupted) watch.
std::vector<Finding> watch_findings(const Snapshot& first, const Snapshot& last, const FlapDetector& detector,
                                    const Thresholds& thresholds);

// Sweeps every `interval` until `duration` has passed or an interrupt arrives (then the
// summary so far is returned with interrupted set).
WatchResult watch(Sweeper& sweeper, const WatchOptions& options, const Thresholds& thresholds,
                  const std::function<void(const WatchEvent&)>& on_event);

}  // namespace ibburn::counters
