#pragma once
// The error sweep's shortcut: a switch's AllPortSelect PortCounters (PortSelect=0xFF) are
// the sums of its ports' counters, and a sum bounds each of its terms. So totals that are
// known, not pinned at their maximum and not above any threshold prove that no port of
// that switch can be flagged `errors` or `saturated` (QP1Dropped included), and its ports need no MAD of their
// own. A pinned total may hide anything (a PMA caps the sum), so it is drilled into. Pure.
#include "counters/port_counters.h"
#include "counters/thresholds.h"

namespace ibburn::counters {

// True when the per-port counters of the switch must be read.
bool totals_need_drill_down(const CounterValues& totals, const Thresholds& thresholds);

}  // namespace ibburn::counters
