#pragma once
// `--slurm-drain`: takes the hosts of drain.txt out of Slurm's service with
// `scontrol update NodeName=HOST State=DRAIN Reason="ibburn: ..."`, one call per host, and
// nothing else (never resumes a node).
#include <iosfwd>
#include <vector>

#include "run/service_actions.h"

namespace ibburn::run {

// Runs scontrol (found on PATH) for each host; says on `err` what it did and what failed.
// Returns how many calls failed.
int slurm_drain(const std::vector<DrainEntry>& hosts, std::ostream& err);

}  // namespace ibburn::run
