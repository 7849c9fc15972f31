#pragma once
// `ibburn burn`: the MPI-launched engine. MPI starts the ranks, tells each its local rank
// and broadcasts where rank 0's control channel listens; from then on everything goes over
// that channel (burn/control_channel.h) so a dead or hung rank costs only its own flows.
#include "burn/options.h"

namespace ibburn::burn {

// Runs this rank's part of the burn (MPI_Init .. MPI_Finalize). Returns the exit code:
// rank 0: 0 all passed, 1 findings, 130 interrupted; other ranks 0 (or 3/130). Throws Error
// for bad input on rank 0; other ranks return the code silently.
int run_burn(const BurnOptions& options);

}  // namespace ibburn::burn
