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

struct CountersCommandOptions {
  // Files or live discovery; the sweep's MADs go out with its MAD options (-C/-P, per-MAD
  // timeout and retries), as discovery's do.
  topo::FabricSource fabric;
  std::string thresholds_file;  // empty: infiniband-diags' suggested thresholds
  std::string json_out;         // {"time_ms", "port_count", "findings": [...]}
  std::string baseline;         // snapshot (--save) of an earlier sweep, or an ibdiagnet output
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

int counters_command(const CountersCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ibburn::counters
