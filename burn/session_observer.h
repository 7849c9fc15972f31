#pragma once
// What plugs into rank 0's session (burn/session.h) between and around the stages, whatever
// runs them (the MPI coordinator, the fluid model). The engine knows no fabric: `ibburn burn
// --fabric` plugs in an observer that maps slow flows onto the routes and names the cables
// behind them, asking for probe stages while the culprit is ambiguous
// (localization/burn_localize.h); `ibburn run`'s job sweeps the switches' counters around each stage
// and puts the whole job's findings in the summary (run/run_command.cpp).
#include <optional>
#include <vector>

#include "burn/stage_plan.h"
#include "burn/transport.h"
#include "burn/verdict.h"

namespace ibburn::burn {

class SessionObserver {
 public:
  virtual ~SessionObserver() = default;
  // Adds its conclusions to the summary (JSON and findings); called whenever the summary is
  // written, so partial runs are explained too.
  virtual void explain(Summary& summary, const std::vector<EndpointInfo>& endpoints) = 0;
  // After the plan's stages: one more stage to run, or nothing to finish the run.
  // `extra_run` such stages ran already.
  virtual std::optional<Stage> follow_up(const Summary& summary, const std::vector<EndpointInfo>& endpoints,
                                         int extra_run) = 0;
  // Once every rank's endpoint is known, before the run header is written: a plan to run
  // instead of the options' one (`ibburn run` plans over the live routes here), or nothing.
  virtual std::optional<Plan> plan_for(const std::vector<EndpointInfo>& /*endpoints*/) { return std::nullopt; }
  // Around every stage, the plan's and follow-ups alike (`ibburn run` sweeps the switches'
  // counters here). `stage_finished` comes before the summary written after the stage, so
  // what it finds is in that summary.
  virtual void stage_starting(int /*index*/, const Stage& /*stage*/) {}
  virtual void stage_finished(const StageResult& /*result*/) {}
};

}  // namespace ibburn::burn
