#pragma once
// Keeping a latency-bound loop on one CPU. A loop that waits on one answer at a time (the MAD
// window) is woken once per answer; woken on another CPU than the one that answers, each
// wake-up is an inter-processor interrupt, which on the VMs ibburn is measured on costs more
// than the work it wakes (docs/benchmarks.md, "Discovery").
#include <pthread.h>
#include <sched.h>

namespace ibburn {

// Pins the calling thread to `cpu` (when it is one of the thread's CPUs; otherwise, or when
// negative, to the CPU it is running on) until destroyed, then gives that thread back the CPUs
// it had. Best effort: where the affinity cannot be read or set, nothing changes. Threads the
// pinned thread starts meanwhile inherit the pin, so scope it to a loop.
class ScopedCpuPin {
 public:
  explicit ScopedCpuPin(int cpu = -1);
  ~ScopedCpuPin();
  // The CPU pinned to; -1 when nothing was pinned.
  int cpu() const { return cpu_; }
  ScopedCpuPin(const ScopedCpuPin&) = delete;
  ScopedCpuPin& operator=(const ScopedCpuPin&) = delete;

 private:
  pthread_t thread_;
  cpu_set_t previous_{};
  int cpu_ = -1;
};

}  // namespace ibburn
