#pragma once
// `ibburn host check --slurm`: the per-host preflight as Slurm's HealthCheckProgram or in a
// prolog. A failing check drains the local node with the check's reason (as NHC does); a
// node drained by anyone else keeps its reason (slurm/actions.h).
#include <iosfwd>
#include <optional>
#include <string>

#include "host/host_check.h"
#include "slurm/actions.h"

namespace ibburn::slurm {

struct HostCheckSlurmOptions {
  std::string node;      // the host as resolved to its Slurm node; empty: $SLURMD_NODENAME, else hostname
  std::string node_map;  // --slurm-node-map
  std::string log;       // JSON lines of what was done to Slurm; empty: none
};

// The drain for a report with errors (pure): "host check: " + its worst error's message, and
// how many more errors it had. None when the check passed (warnings and infos drain nobody).
std::optional<Drain> host_check_drain(const host::HostReport& report, const std::string& host);

// Checks, prints the report (and its JSON), drains the node when the check fails. Returns the
// check's exit code (0 ready, 1 errors: the node drained).
int run_host_check_slurm(const host::CheckOptions& options, const std::string& json_out,
                         const HostCheckSlurmOptions& slurm, std::ostream& out);

}  // namespace ibburn::slurm
