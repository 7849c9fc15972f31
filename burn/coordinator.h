#pragma once
// Rank 0's role: gathers every rank's endpoint, refuses the hosts that failed their preflight,
// and runs rank 0's session (burn/session.h) with itself as the stage runner: each stage over
// the control channel, with per-second progress, the ranks lost on the way recorded (and the
// summary rewritten) as they go.
#include <memory>
#include <string>
#include <vector>

#include "burn/options.h"
#include "burn/stage_plan.h"
#include "burn/session_observer.h"
#include "burn/socket_util.h"

namespace ibburn::burn {

struct CoordinatorInput {
  int ranks = 0;
  Plan plan;
  Fd listener;        // the control channel's listening socket
  std::string token;  // ranks must present it in their hello
  std::vector<std::shared_ptr<SessionObserver>> observers;
};

// Returns 0 (all passed), 1 (findings: slow/failed flows, lost ranks) or 130 (interrupted).
int run_coordinator(CoordinatorInput in, const BurnOptions& options);

}  // namespace ibburn::burn
