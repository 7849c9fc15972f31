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
// The bridges where ACS redirection would turn a peer-to-peer transfer between a and b away
// from its direct route: the meeting bridge and those below it. Empty when a and b share no
// bridge (the route goes through the root complex anyway).
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
