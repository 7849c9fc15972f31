#pragma once
// `ibburn run --allocation`: the hosts a job holds, for the sim transport, which runs in one
// process (an MPI job's hosts are its ranks'). Pure: the Slurm side's text comes in from
// slurm/scontrol.h.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "slurm/nodes.h"

namespace ibburn::run {

struct AllocationRequest {
  bool from_slurm = false;         // "slurm": $SLURM_JOB_NODELIST, expanded by scontrol
  std::vector<std::string> hosts;  // else a list of ibburn host names ("h1,h2", or @FILE's words)
};

// "slurm", "@FILE" (host names separated by spaces, commas or lines; '#' comments) or
// "h1,h2,...". `file_text`: FILE's text, read by the caller. Throws InputError naming the option or the file on an
// empty list.
AllocationRequest parse_allocation(const std::string& value, const std::string& file_text = "");

struct Allocation {
  std::set<std::string> hosts;                  // the fabric's hosts in the job
  std::vector<std::string> nodes_without_host;  // allocated Slurm nodes no fabric host resolves to
};

// The fabric's hosts whose Slurm node (resolve_slurm_nodes) is one of `allocated_nodes`.
Allocation allocation_from_slurm(const std::vector<std::string>& allocated_nodes,
                                 const std::vector<std::string>& fabric_hosts,
                                 const std::vector<slurm::SlurmNode>& nodes,
                                 const std::map<std::string, std::string>& node_map);

// A listed allocation; throws InputError(origin) naming a host the fabric does not have.
Allocation allocation_from_list(const std::vector<std::string>& listed, const std::set<std::string>& fabric_hosts,
                                const std::string& origin);

}  // namespace ibburn::run
