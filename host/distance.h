#pragma once
// GPU-HCA distance in the words of nvidia-smi and NCCL, computed from the PCI tree, and the
// 1:1 GPU-HCA pairing the burn uses by default. Pure, no I/O.
#include <optional>
#include <string>
#include <vector>

#include "host/inventory.h"

namespace ibburn::host {

// Ordered nearest first. NCCL disables GPUDirect RDMA beyond PXB by default.
enum class Distance {
  PIX = 0,  // through at most one PCIe switch
  PXB,      // through several PCIe switches, not through a host bridge
  PHB,      // through the host bridge (root complex) both hang from
  NODE,     // across host bridges of one NUMA node
  SYS,      // across sockets (the SMP interconnect)
};
const char* to_string(Distance d);
std::optional<Distance> distance_from_string(const std::string& s);

Distance distance(const PciFunction& a, const PciFunction& b);
// The bridges on the peer-to-peer route between a and b, where ACS P2P redirection must be
// off (as NCCL advises, on every switch port of the route): the bridge where their paths meet
// and those below it on both sides. Empty when a and b share no bridge: the route goes
// through the root complex, where redirection changes nothing.
std::vector<std::string> bridges_between(const PciFunction& a, const PciFunction& b);

struct Pair {
  std::string gpu, gpu_bdf;
  std::string hca, hca_bdf;
  Distance distance = Distance::SYS;
};
// Greedy 1:1 assignment, nearest pairs first (ties: GPU order, then HCA order). GPUs or
// HCAs without a PCI record are left out. Unpaired ones are those missing from the result.
std::vector<Pair> pair_gpus_with_hcas(const HostInventory& inv);

}  // namespace ibburn::host
