#pragma once
// The counters while the burn runs: the link-state polls during a stage (a switch that bounced
// and came back), the sweep after it against the one before (errors under load, coverage from
// the switches' own data counters, the fabric's changes, the SM still there), and the
// counters' localisation. Reads job.model, job.ports_by_rank and the counters step's watches;
// adds to job.counter_findings, job.expected_total and job.by_counters; writes
// counters-stage-N.json and counters.json.
#include <memory>

#include "burn/engine.h"
#include "fluid/simulated_burn.h"
#include "run/job_state.h"
#include "run/link_state_poll.h"

namespace ibburn::run {

class StageSweep {
 public:
  void starting(JobState& job, int index, const burn::Stage& stage);
  void finished(JobState& job, const burn::StageResult& result);

 private:
  std::unique_ptr<LinkStatePoll> poll_;  // during a stage
  Clock::time_point t0_;
};

// The sim transport's traffic into the counters: a simulated fabric's data counters through
// ibsim's console (--sim-console, else $SIMFABRIC_DIR/console) when the fabric is live, the
// model's own counters (job.modelled, job.last) for a fabric from files.
void count_simulated_traffic(JobState& job, fluid::SimulatedBurn& run);

}  // namespace ibburn::run
