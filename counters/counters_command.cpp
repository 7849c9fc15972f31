#include "counters/counters_command.h"

#include <chrono>
#include <ostream>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/finding.h"
#include "common/interrupt.h"
#include "common/systemic_causes.h"
#include "counters/counter_check.h"
#include "counters/counter_delta.h"
#include "counters/pm_info_snapshot.h"
#include "counters/snapshot_json.h"
#include "wiring/cable_scopes.h"

namespace ibburn::counters {
namespace {

// The findings and what they judged; every port's counters are --save's snapshot.
void write_json(const std::string& path, const Snapshot& snap, const std::vector<Finding>& findings, size_t sweeps) {
  nlohmann::json j = {{"time_ms", snap.time_ms}, {"port_count", snap.ports.size()}};
  j["findings"] = findings_to_json(findings)["findings"];
  if (sweeps) j["sweeps"] = sweeps;
  write_file_atomic(path, j.dump() + "\n");
}

int finish(const CountersCommandOptions& o, const Snapshot& snap, const std::vector<Finding>& findings, size_t sweeps,
           std::ostream& summary_out) {
  // Files first: a failing terminal must not lose the results.
  if (!o.save.empty()) write_file_atomic(o.save, snapshot_json_text(snap));
  if (!o.json_out.empty()) write_json(o.json_out, snap, findings, sweeps);
  print_summary(summary_out,
                "counters (" + std::to_string(snap.ports.size()) + " ports" +
                    (sweeps ? ", " + std::to_string(sweeps) + " sweeps" : "") + ")",
                findings);
  return exit_code_for(findings);
}

// Most ports of the fabric, a tier, a switch... over a threshold the same way are one cause
// (a fabric-wide setting, a switch's firmware): one `systemic` finding, as `ibburn run` says it.
std::vector<Finding> one_cause_once(std::vector<Finding> findings, const topo::Fabric& fabric) {
  return group_systemic_causes(std::move(findings), wiring::cable_scopes(fabric));
}

}  // namespace

int counters_command(const CountersCommandOptions& o, std::ostream& out, std::ostream& err) {
  // Inputs are checked before the fabric is touched, so typos fail fast with exit 2.
  Thresholds thresholds = o.thresholds_file.empty() ? Thresholds::defaults() : Thresholds::load(o.thresholds_file);
  std::optional<Snapshot> baseline;
  if (!o.baseline.empty()) {
    // Watch mode judges the rise over its own window; a baseline belongs to single sweeps.
    if (o.watch) throw Error(kExitInput, "--baseline applies to a single sweep, not to watch");
    baseline = load_saved_sweep(o.baseline, o.fabric.node_name_map);
  }
  auto judge = [&](const Snapshot& snap) {
    return baseline ? check_deltas(snap, compute_deltas(*baseline, snap), thresholds)
                    : check_snapshot(snap, thresholds);
  };
  if (!o.snapshot.empty()) {
    // A capture is judged as it was taken: nothing to sweep, clear or watch.
    if (o.watch || o.sweep.clear) throw Error(kExitInput, "--snapshot judges a saved sweep: no watch, no --clear");
    const Snapshot snap = load_saved_sweep(o.snapshot, o.fabric.node_name_map);
    return finish(o, snap, judge(snap), 0, out);
  }

  // One discovery (or file) serves the whole run: the sweeps address ports by its LIDs.
  const auto loading = std::chrono::steady_clock::now();
  topo::Fabric fabric = o.fabric.load();
  if (o.fabric.is_live())
    err << "discovered " << fabric.size() << " nodes in "
        << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - loading).count()
        << " ms\n";
  SweepOptions sweep_options = o.sweep;
  sweep_options.port_state = sweep_options.port_state || o.watch;
  // Findings alone come from the error sweep; snapshots, deltas, clearing and watch need
  // every port's counters.
  const bool findings_only = !o.watch && !o.full_sweep && o.save.empty() && o.baseline.empty() && !o.sweep.clear;
  if (findings_only) sweep_options.errors_only = thresholds;
  Sweeper sweeper(fabric, o.fabric.live.mad, sweep_options);

  if (!o.watch) {
    const auto start = std::chrono::steady_clock::now();
    Snapshot snap = sweeper.sweep();
    err << (findings_only ? "error sweep of " : "swept ") << snap.ports.size() << " ports in "
        << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()
        << " ms (" << sweeper.mad_stats().sent << " MADs, " << sweeper.mad_stats().timeouts << " timed out)\n";
    return finish(o, snap, one_cause_once(judge(snap), fabric), 0, out);
  }

  install_interrupt_handlers();
  auto on_event = [&](const WatchEvent& e) {
    std::string line = to_json(e).dump();
    if (o.events_file.empty()) {
      out << line << "\n" << std::flush;
    } else {
      append_line_durable(o.events_file, line);
    }
  };
  WatchResult r = watch(sweeper, o.watch_options, thresholds, on_event);
  // With events on stdout, the human summary goes to stderr to keep stdout JSON lines.
  int rc =
      finish(o, r.last, one_cause_once(std::move(r.findings), fabric), r.sweeps, o.events_file.empty() ? err : out);
  return r.interrupted ? kExitInterrupted : rc;
}

}  // namespace ibburn::counters
