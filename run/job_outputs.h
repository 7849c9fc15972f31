#pragma once
// What the job writes for a site to act on, whatever step it got to: summary.json's job
// record, drain.txt and cables.csv (rewritten with every summary, so a job that dies keeps
// them), the stop before any traffic, and the page, Prometheus, Slurm and terminal at its end.
#include "burn/summary.h"
#include "run/drain_guard.h"
#include "run/job_state.h"

namespace ibburn::run {

// The job's summary before its burn writes one: first thing (a job killed before the burn's
// first summary reads as running, never as a pass), and when it stops before any traffic.
burn::BurnSummary job_summary(const JobState& job, burn::RunState state);

// drain.txt and cables.csv in cost order. Past --max-drain nobody is drained and the guard's
// finding joins doc's findings (once), failing it.
GuardedDrain write_lists(const JobState& job, burn::BurnSummary& doc);

// The job stopped before any traffic by `cause`: summary.json (state stopped, the topo and
// health findings), empty results, the lists; throws Error(kExitFindings).
[[noreturn]] void stop(const JobState& job, const Finding& cause);

// After the burn: the lists, summary.json, the page and ibburn.prom, Slurm's drains and
// resumes, and the terminal's lines. Returns the job's exit code.
int publish(JobState& job, burn::BurnSummary& doc, int burn_code);

}  // namespace ibburn::run
