#pragma once
// Rank 0's role: gathers every rank's endpoint, runs the plan stage by stage over the control
// channel, prints progress, and writes results.jsonl (one line per finished stage, fsynced)
// and summary.json (rewritten after every stage and whenever a rank is lost) so nothing
// measured is lost when the job dies.
#include <string>

#include "burn/engine.h"
#include "burn/plan.h"
#include "burn/socket_util.h"

namespace ibburn::burn {

struct CoordinatorInput {
  int ranks = 0;
  Plan plan;
  Fd listener;                           // the control channel's listening socket
  std::string token;                     // ranks must present it in their hello
  std::shared_ptr<Explainer> explainer;  // may be null
};

// Returns 0 (all passed), 1 (findings: slow/failed flows, lost ranks) or 130 (interrupted).
int run_coordinator(CoordinatorInput in, const BurnOptions& options);

}  // namespace ibburn::burn
