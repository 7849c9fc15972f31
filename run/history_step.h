#pragma once
// The run into --history's SQLite (report/history.h), and what changed since the previous
// run there (doc's job.changes); the cables that already failed then (job.failed_before) are
// replaced, not reseated, in cables.csv.
#include "burn/summary.h"
#include "run/job_step.h"

namespace ibburn::run {

class HistoryStep : public Step {
 public:
  explicit HistoryStep(burn::BurnSummary& doc) : doc_(doc) {}
  std::string name() const override { return "history"; }
  std::string run(JobState& job) override;

 private:
  burn::BurnSummary& doc_;
};

}  // namespace ibburn::run
