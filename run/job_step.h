#pragma once
// One step of `ibburn run`'s job (topo, audit, routes, endpoints, counters, plan, health,
// history): what it reads of the job's state and fills in (run/job_state.h), and the outcome
// line summary.json's job.steps and the terminal say of it. run/run_command.cpp runs them in
// order; each is tested alone on a state a test sets up (tests/run/job_steps_test.cpp).
#include <string>

#include "run/job_state.h"

namespace ibburn::run {

class Step {
 public:
  virtual ~Step() = default;
  virtual std::string name() const = 0;
  // Its outcome ("ok", "skipped: WHY", a count). Throws Error to stop the job: InputError for
  // bad input, Error(kExitFindings) for a fabric that must not be burned.
  virtual std::string run(JobState& job) = 0;
};

// Runs `step`, times it, records it in job.steps and says it.
void run_step(JobState& job, Step& step);
void run_step(JobState& job, Step&& step);

}  // namespace ibburn::run
