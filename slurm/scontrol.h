#pragma once
// The one place ibburn talks to Slurm: `scontrol` (found on PATH) reads the nodes and carries
// out the actions slurm/actions.h plans (drain, resume), each logged in the run directory.
#include <iosfwd>
#include <string>
#include <vector>

#include "slurm/actions.h"

namespace ibburn::slurm {

// Reads the nodes (`scontrol show node --oneliner`) and --slurm-node-map, plans, runs one
// `scontrol update` per drain or resume, and appends every action with its outcome to
// `log_path` (none when empty) as a JSON line ({time, action, host, node, reason, exit}); says on `err` what
// it did, what it left alone and why. Returns how many scontrol calls failed (reading the
// nodes included). Throws InputError for a bad --slurm-node-map.
int apply_slurm_actions(const SlurmOptions& options, const std::vector<Drain>& drain,
                        const std::vector<std::string>& passed, const std::string& log_path, std::ostream& err);

// Every node Slurm knows (`scontrol show node --oneliner`). Throws EnvironmentError, its
// message starting with `what` (the option that needs them), when scontrol fails.
std::vector<SlurmNode> read_slurm_nodes(const std::string& what);

// The job ibburn runs in: its nodes ($SLURM_JOB_NODELIST through `scontrol show hostnames`)
// and every node Slurm knows (`scontrol show node --oneliner`), for --allocation slurm.
// Throws EnvironmentError outside a Slurm job or when scontrol fails.
struct SlurmJob {
  std::vector<std::string> allocated;
  std::vector<SlurmNode> nodes;
};
SlurmJob read_slurm_job();

}  // namespace ibburn::slurm
