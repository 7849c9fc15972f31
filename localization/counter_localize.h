#pragma once
// Localisation from the switches' own port counters under adaptive routing (pure). Ports a
// switch treats as equals (routing/port_groups.h) carry the same share of a stage's traffic;
// a slow cable behind one of them makes the switch move load to its siblings, so that port
// counts less data than its group while it waits more to send (PortXmitWait). Flow rates
// cannot tell those cables apart (every flow crosses all of them); the counters can.
//
// The statistic, per port p of a group, against the other ports of the group (leave-one-out,
// so a pair of parallel cables is judged each against the other):
//   ref    = median of the others' data,  spread = max(1.4826 x MAD of the others, noise x ref)
//   z_data = (ref - data_p) / spread      (how far below its equals the port is)
//   z_wait = (wait_p - ref_wait) / max(1.4826 x MAD of the others' wait, noise x ref_wait, 1)
// p is a suspect when z_data >= min_z, it fell short by at least min_shortfall of ref, and,
// where wait counters were read, it waited more than its equals' median (a port that carried
// less without waiting more was fed less, it is not slow). Confidence: min(1, z_data /
// (2 min_z)) when the wait stands out too (z_wait >= min_z), half that otherwise (also when
// no wait counter was read).
#include <vector>

#include "routing/cable_index.h"
#include "routing/port_groups.h"

namespace ibburn::localization {

// What a switch port's counters say about its egress direction over one window.
struct PortLoad {
  double data_octets = -1;  // out of the port; < 0: not read
  double wait = -1;         // PortXmitWait ticks; < 0: not read
};

struct CounterRules {
  double min_z = 5;             // robust z-score below the group that makes a suspect
  double noise = 0.02;          // relative spread assumed at least (equals never count exactly alike)
  double min_shortfall = 0.10;  // and at least this share of the group's data missing
};

struct CounterSuspect {
  routing::EdgeId edge = 0;
  size_t group = 0;                               // index into the groups judged
  double data_octets = 0, group_data_octets = 0;  // the port's, and the median of the others
  double wait = -1, group_wait = -1;              // likewise; -1 when not read
  double z_data = 0, z_wait = 0;
  double confidence = 0;
};

// `by_edge`: the load of every edge out of a switch port (indexed by EdgeId). Groups with
// fewer than two ports read, or whose others carried nothing, are not judged. Strongest first.
std::vector<CounterSuspect> localize_by_counters(const std::vector<routing::PortGroup>& groups,
                                                 const std::vector<PortLoad>& by_edge, const CounterRules& rules = {});

}  // namespace ibburn::localization
