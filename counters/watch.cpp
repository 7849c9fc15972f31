#include "counters/watch.h"

#include <algorithm>
#include <thread>

#include "common/interrupt.h"
#include "counters/counter_check.h"
#include "counters/counter_delta.h"

namespace ibburn::counters {

std::vector<Finding> watch_findings(const Snapshot& first, const Snapshot& last, const FlapDetector& detector,
                                    const Thresholds& thresholds) {
  std::vector<Finding> out = detector.findings();
  auto rest = check_deltas(last, compute_deltas(first, last), thresholds);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

WatchResult watch(Sweeper& sweeper, const WatchOptions& options, const Thresholds& thresholds,
                  const std::function<void(const WatchEvent&)>& on_event) {
  using Clock = std::chrono::steady_clock;
  WatchResult result;
  FlapDetector detector(options.rules);
  const auto start = Clock::now();
  const auto end = start + options.duration;
  for (auto next = start; !interrupted();) {
    Snapshot snap = sweeper.sweep();
    for (const auto& e : detector.observe(snap)) on_event(e);
    if (result.sweeps++ == 0) result.first = snap;
    result.last = std::move(snap);
    next += options.interval;
    if (next >= end) break;
    // Sleep in short steps so Ctrl-C is honoured promptly.
    while (!interrupted() && Clock::now() < next)
      std::this_thread::sleep_for(std::min<Clock::duration>(next - Clock::now(), std::chrono::milliseconds(50)));
  }
  result.interrupted = interrupted();
  result.findings = watch_findings(result.first, result.last, detector, thresholds);
  return result;
}

}  // namespace ibburn::counters
