#pragma once
// `ibburn counters` and `ibburn counters watch` end to end: load or discover the fabric,
// sweep, judge, write JSON/snapshots/events, print the summary. Returns the exit code.
#include <chrono>
#include <iosfwd>
#include <string>

#include "counters/sweep.h"
#include "counters/watch.h"
#include "topo/fabric_source.h"

namespace ibburn::counters {

struct CountersRunOptions {
  // Files or live discovery; MADs go out through its -C/-P, discovery uses the sweep's
  // per-MAD timeout and retries.
  topo::FabricSource fabric;
  std::string thresholds_file;  // empty: infiniband-diags' suggested thresholds
  std::string json_out;         // {"time_ms", "ports": [...], "findings": [...]}
  std::string baseline;         // snapshot (or --json output) of an earlier sweep, or an ibdiagnet output
  std::string snapshot;         // judge this saved sweep (as baseline's kinds) instead of sweeping
  std::string save;             // write this sweep's snapshot here
  SweepOptions sweep;
  // Read every port even when only findings are needed (the error sweep's drill-down off).
  bool full_sweep = false;
  // watch mode
  bool watch = false;
  WatchOptions watch_options;
  std::string events_file;  // empty: JSON lines on `out`
};

int run_counters(const CountersRunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ibburn::counters
