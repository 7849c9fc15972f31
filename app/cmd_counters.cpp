// `ibburn counters` (one sweep) and `ibburn counters watch` (repeated sweeps, flapping).
#include <iostream>
#include <memory>
#include <stdexcept>

#include "app/command.h"
#include "app/fabric_options.h"
#include "common/error.h"
#include "counters/counters_command.h"

namespace ibburn::app {
namespace {

// Options shared by the sweep and watch, bound to one CountersCommandOptions.
void add_sweep_options(CLI::App& cmd, counters::CountersCommandOptions& o) {
  // The fabric needs its LIDs (a file written on the fabric, or live); --timeout and
  // --retries below serve discovery and the sweep alike.
  add_fabric_options(cmd, o.fabric, FabricOptionSet().no_discovery_knobs());
  cmd.add_option("--thresholds", o.thresholds_file,
                 "ibqueryerrors threshold file (Name=value); default: infiniband-diags' "
                 "suggested values");
  cmd.add_option("--json", o.json_out, "write {\"ports\": [...], \"findings\": [...]} here");
  cmd.add_option("--save", o.save, "save this sweep's counters as a snapshot (for --baseline)");
  cmd.add_flag("--clear", o.sweep.clear, "reset the counters after reading them");
  // Bounded: ibsim and a client can block on each other's full sockets beyond ~1000.
  cmd.add_option("--window", o.sweep.window, "MADs in flight at once")
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  cmd.add_option("--retries", o.fabric.live.mad.retries, "retries per MAD")->capture_default_str();
}

Registrar reg([](CLI::App& root) {
  auto o = std::make_shared<counters::CountersCommandOptions>();
  auto timeout = std::make_shared<std::string>("200ms");
  CLI::App* cmd =
      root.add_subcommand("counters", "sweep the PortCounters of every port: errors, saturated, unreachable");
  cmd->require_subcommand(0, 1);
  add_sweep_options(*cmd, *o);
  cmd->add_option("--baseline", o->baseline,
                  "judge the rise since this snapshot (--save or --json of an earlier run, or an ibdiagnet output)");
  cmd->add_option("--snapshot", o->snapshot,
                  "judge this saved sweep instead of sweeping (as --baseline: an ibdiagnet output's PM_INFO too)");
  cmd->add_option("--timeout", *timeout, "per-MAD timeout")->capture_default_str();
  cmd->add_flag("--full-sweep", o->full_sweep,
                "read every port even when only findings are needed (default then: switch "
                "totals first, ports only where they could hide a finding)");

  CLI::App* watch = cmd->add_subcommand("watch",
                                        "sweep repeatedly with port state: flapping links, rising "
                                        "errors (events as JSON lines)");
  auto interval = std::make_shared<std::string>("10s");
  auto duration = std::make_shared<std::string>("1h");
  add_sweep_options(*watch, *o);
  watch->add_option("--timeout", *timeout, "per-MAD timeout")->capture_default_str();
  watch->add_option("--interval", *interval, "time between sweeps")->capture_default_str();
  watch->add_option("--duration", *duration, "how long to watch")->capture_default_str();
  watch->add_option("--events", o->events_file, "append events here instead of stdout");

  auto run = [o, timeout, interval, duration](bool is_watch) {
    o->watch = is_watch;
    o->fabric.live.mad.timeout = duration_option(*timeout, "--timeout");
    o->watch_options.interval = duration_option(*interval, "--interval");
    o->watch_options.duration = duration_option(*duration, "--duration");
    set_exit_code(counters::counters_command(*o, std::cout, std::cerr));
  };
  cmd->callback([cmd, run] {
    if (cmd->get_subcommands().empty()) run(false);
  });
  watch->callback([run] { run(true); });
});

}  // namespace
}  // namespace ibburn::app
