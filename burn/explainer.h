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
};

// The stage loop of every burn (MPI or simulated): the plan's stages in order, then
// follow-up stages (appended to `plan`) while `explainer` asks for them; stops at an
// interrupt. `run_stage(i)` runs plan.stages[i] and returns the summary it wrote after it,
// which is what the explainer decides on. `explainer` may be null.
void run_stages(Plan& plan, Explainer* explainer, const std::vector<EndpointInfo>& endpoints,
                const std::function<Summary(std::size_t)>& run_stage);

}  // namespace ibburn::burn
