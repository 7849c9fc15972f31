#pragma once
// Rank 0's hook for explaining a burn beyond its endpoints. The engine knows no fabric;
// `ibburn burn --fabric` plugs in one that maps slow flows onto the routes and names the
// cables behind them (plan/burn_localize.h), and that asks for probe stages when the plan's
// own stages leave the culprit ambiguous.
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "burn/plan.h"
#include "burn/transport.h"
#include "burn/verdict.h"

namespace ibburn::burn {

class Explainer {
 public:
  virtual ~Explainer() = default;
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

// The stage loop of every burn (MPI or simulated): the plan's stages in order, then
// follow-up stages (appended to `plan`) while `explainer` asks for them; stops at an
// interrupt. `run_stage(i)` runs plan.stages[i] and returns the summary it wrote after it,
// which is what the explainer decides on. `explainer` may be null.
void run_stages(Plan& plan, Explainer* explainer, const std::vector<EndpointInfo>& endpoints,
                const std::function<Summary(std::size_t)>& run_stage);

}  // namespace ibburn::burn
