#pragma once
// A whole burn job in one process: rank 0's coordinator on the calling thread and every rank's
// real worker on a thread of its own, over the real control channel (loopback TCP), on the
// paced transport (no data plane). Tests drive the coordinator with it; bench/ measures the
// control plane at thousands of ranks.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "burn/engine.h"
#include "burn/stage_plan.h"

namespace ibburn::testing {

struct ThreadJob {
  int ranks = 4;
  burn::Plan plan;
  std::vector<double> rates;  // Gb/s by rank
  int lost_rank = -1;         // says hello, then closes its channel when its stage starts
  // When set: the steady-clock time (ns) at which the first connection started, i.e. stage 1.
  std::shared_ptr<std::atomic<long long>> first_start_ns;
  // > 1: ranks in hosts of this many; each host but rank 0's reaches rank 0 through a relay
  // (burn/control_relay.h) on a thread of its own, as its first rank would run it.
  int ranks_per_host = 1;
  // Set: every rank's set-up fails with this EnvironmentError (memory it cannot pin).
  std::string setup_failure{};
  int erring_rank = -1;  // its port's error counters rise (PacedTransport::count_errors)
};

// Returns the coordinator's exit code.
int run_thread_job(const ThreadJob& job, const burn::BurnOptions& options);

}  // namespace ibburn::testing
