#include "run/job_step.h"

namespace ibburn::run {

void run_step(JobState& job, Step& step) {
  const auto t0 = Clock::now();
  const std::string outcome = step.run(job);
  job.record(step.name(), t0, outcome);
}

void run_step(JobState& job, Step&& step) { run_step(job, step); }

}  // namespace ibburn::run
