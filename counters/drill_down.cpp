#include "counters/drill_down.h"

namespace ibburn::counters {

bool totals_need_drill_down(const CounterValues& totals, const Thresholds& thresholds) {
  for (size_t i = 0; i < kErrorCounterCount; ++i) {
    const Counter c = counter_at(i);
    if (!totals.has(c) || totals.saturated(c) || thresholds.exceeded(c, totals.get(c))) return true;
  }
  // Not thresholded, but reported when pinned like the error counters.
  return totals.saturated(Counter::QP1Dropped);
}

}  // namespace ibburn::counters
