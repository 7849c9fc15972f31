#pragma once
// Where a site's scheduler puts a job (pure): Slurm's topology/tree plugin, given the
// topology.conf `ibburn wiring slurm-topology` writes, places N hosts under the fewest leaves,
// then the fewest switches above them. On an idle cluster, jobs of one size placed back to
// back tile the fabric that way: within one leaf while N fits a leaf, within one pod (the
// leaves that share spines) while it fits a pod, across the fabric beyond. Those tiles are the
// placements the pricing weighs, each host in one of them at most.
#include <string>
#include <vector>

#include "price/price_fabric.h"

namespace ibburn::price {

struct Placement {
  std::vector<HostId> hosts;  // in the scheduler's order: leaf by leaf, by name within a leaf
};

struct JobSize {
  std::string label;  // as the site named it: "64", "leaf", "pod", "all"
  size_t hosts = 0;
};

// Slurm's leaves (switches with hosts, by name), each with its hosts by name, and its pods.
struct SlurmLayout {
  std::vector<std::vector<HostId>> leaves;  // hosts of each leaf
  std::vector<std::vector<size_t>> pods;    // leaves of each pod, in order
};
SlurmLayout slurm_layout(const PriceFabric& fabric);

// "64,512,all" (numbers of hosts, or leaf, pod, all: a leaf's, a pod's, the fabric's hosts);
// empty: leaf, pod, all (pod only where the fabric has more than one). Sizes above the
// fabric's hosts are refused: InputError naming `option`.
std::vector<JobSize> parse_job_sizes(const std::string& spec, const SlurmLayout& layout, const std::string& option);

// The placements of an N-host job; none when the fabric has fewer than N hosts.
std::vector<Placement> placements(const SlurmLayout& layout, size_t hosts);

}  // namespace ibburn::price
