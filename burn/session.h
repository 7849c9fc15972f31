#pragma once
// Rank 0's session: the one stage loop of every burn, whatever moves the bytes. It owns the
// recording: results.jsonl (the run header, then one fsynced line per finished stage and the
// runner's events), summary.json (rewritten after every stage, and whenever the runner asks,
// so nothing measured is lost when the job dies) and the closing lines on stderr.
//
// A StageRunner runs one stage and returns what it measured: the MPI coordinator over the
// control channel (burn/coordinator.h), the fluid model over a fabric (fluid/simulated_burn.h).
// SessionObservers (burn/session_observer.h) see the stages start and end, explain every
// summary and ask for follow-up stages after the plan's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "burn/options.h"
#include "burn/stage_plan.h"
#include "burn/results.h"
#include "burn/session_observer.h"
#include "burn/verdict.h"

namespace ibburn::burn {

class StageRunner {
 public:
  virtual ~StageRunner() = default;
  // Runs `stage` (1-based `index`) and returns what it measured. Meanwhile it may record
  // events and rewrite the summary through the session (Session::record_events,
  // write_summary).
  virtual StageResult run_stage(int index, const Stage& stage) = 0;
  // The runner's part of every summary: before the verdicts (the ranks it lost, the stage in
  // progress) and after them (the hosts' preflights).
  virtual void add_to(SummaryInput& /*input*/) const {}
  virtual void add_to(Summary& /*summary*/) const {}
  // The runner's own progress lines: before a follow-up stage an observer asked for, and once
  // a stage is recorded (its summary written).
  virtual void follow_up_starting(int /*index*/, const Stage& /*stage*/) {}
  virtual void stage_recorded(const StageResult& /*result*/, const Summary& /*summary*/) {}
};

class Session {
 public:
  // Makes the results directory. `observers` are called in this order.
  Session(const SessionOptions& options, StageRunner& runner, std::vector<std::shared_ptr<SessionObserver>> observers);

  // Once the endpoints are known: the first observer's plan for them, if one has a plan.
  std::optional<Plan> observers_plan(const std::vector<EndpointInfo>& endpoints);
  // Before stage 1: results.jsonl anew with the run header for this plan and these endpoints,
  // and the first summary, which says running (a run killed in stage 1 never reads as done).
  void open(Plan plan, std::vector<EndpointInfo> endpoints);
  // results.jsonl lines beside the stages' (rank losses), in one durable append.
  void record_events(const std::string& lines);
  // summary.json from what is known now, explained by the observers; `complete`: every stage
  // ran to its end.
  Summary write_summary(bool complete = false);
  // The plan's stages in order, then the observers' follow-ups (appended to the plan) while
  // one asks; each recorded as it ends. Stops at an interrupt. Returns the last summary,
  // written complete unless interrupted.
  Summary run();
  // The last summary's findings and "burn: <what_ran>, results in <dir>" on stderr. Returns
  // the exit code: 0 all passed, 1 findings, 130 interrupted.
  int conclude(const Summary& last, const std::string& what_ran) const;

  const Plan& plan() const { return plan_; }
  const std::vector<StageResult>& stages() const { return stages_; }
  const std::string& results_path() const { return results_path_; }

 private:
  Summary run_and_record(std::size_t i);
  std::optional<Stage> follow_up(const Summary& last, int extra_run);

  const SessionOptions& o_;
  StageRunner& runner_;
  std::vector<std::shared_ptr<SessionObserver>> observers_;
  std::string results_path_, summary_path_;
  Plan plan_;
  std::vector<EndpointInfo> endpoints_;
  std::vector<StageResult> stages_;
  bool interrupted_ = false;  // the run stopped at an interrupt
};

}  // namespace ibburn::burn
