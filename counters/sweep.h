#pragma once
// Sweeping the counters of every port of a fabric: which ports (pure), and reading them
// with many MADs in flight (I/O, through MadWindow).
#include <memory>
#include <optional>
#include <vector>

#include "counters/port_counters.h"
#include "counters/thresholds.h"
#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::counters {

// The MAD window lives in topo/ (discovery sends its SMPs through it too).
using topo::kAttrNodeInfo;
using topo::kAttrPortCounters;
using topo::kAttrPortCountersExt;
using topo::kAttrPortInfo;
using topo::kClassPerfMgt;
using topo::kClassSmiLid;
using topo::kMethodGet;
using topo::kMethodSet;
using topo::MadOptions;
using topo::MadRequest;
using topo::MadResult;
using topo::MadWindow;

// The ports a sweep reads, as samples with names, GUIDs, LIDs and peers filled in and no
// counters yet: every external port of a switch (addressed through the switch's LID) and
// every CA/router port that has a LID or a link. A port whose node has no known LID is
// kept and reported unreachable.
// `ends`, when given, gets each target's port in the model.
std::vector<PortSample> sweep_targets(const topo::Fabric& fabric, std::vector<topo::PortEnd>* ends = nullptr);

struct SweepOptions {
  size_t window = 128;      // MADs in flight at once (--window)
  bool extended = true;     // also read PortCountersExtended (64-bit data counters)
  bool port_state = false;  // also read PortInfo (SMP) for the port state
  bool clear = false;       // reset the counters after reading them
  // Error sweep: when set, each switch's AllPortSelect totals are read first (one MAD per
  // switch) and its ports only when the totals could hide a port these thresholds flag
  // (drill_down.h); CA ports get one PortCounters MAD each. Only the error counters are
  // read, so the snapshot holds no data counters and ports of switches whose totals were
  // clean carry no counters at all: for findings only, never for --json/--save/--baseline
  // or watch. Ignores `extended`, `port_state` and `clear`.
  std::optional<Thresholds> errors_only;
};

class Sweeper {
 public:
  // `mad`: the port and per-MAD timeout and retries (the fabric source's, FabricSource::live).
  // `fabric` outlives the sweeper (the polls route around down cables over it).
  Sweeper(const topo::Fabric& fabric, const MadOptions& mad, SweepOptions options);
  // One sweep of every target; never throws for ports that do not answer.
  Snapshot sweep();
  // Only each target's PortInfo (one SMP a port): its state, `reachable` when it answered, no
  // counters. Cheap enough to poll during a stage for links that go down and come back.
  // While a port answers that its link is down, the LID routes to some others may cross that
  // link until the SM reroutes: the ports that did not answer are asked again by directed
  // route around every port seen down (`by_directed_route` when they answer that way).
  Snapshot sweep_port_states();
  const MadWindow::Stats& mad_stats() const { return window_.stats(); }
  // For other MADs between sweeps (umad2sim takes one open port per process).
  MadWindow& mad_window() { return window_; }

 private:
  Snapshot sweep_errors_only(const Thresholds& thresholds);
  void ask_around_down_ports(Snapshot& snap);
  // The port MADs leave from, in the model (asked once, by a directed route of no hops).
  std::optional<topo::PortEnd> local_port();

  const topo::Fabric& fabric_;
  std::vector<topo::PortEnd> target_ends_;  // each target's port in the model (before targets_: filled with it)
  std::vector<PortSample> targets_;
  std::optional<std::optional<topo::PortEnd>> local_;
  SweepOptions options_;
  MadWindow window_;
};

}  // namespace ibburn::counters
