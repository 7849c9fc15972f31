#pragma once
// The host checks: pure functions from a HostInventory (and the expectations) to findings.
// Finding nodes are "<BDF> <name>" (inventory node_name), port 0 for PCI functions and the
// port number for HCA ports.
#include <vector>

#include "common/finding.h"
#include "host/distance.h"
#include "host/expectations.h"
#include "host/inventory.h"

namespace ibburn::host {

// Each PCIe link on the paths (current width/speed vs what both ends support):
// pcie_degraded (error; speed-only on a GPU: warning, GPUs may slow an idle link) and
// pcie_capped (warning: running at what the upstream port allows, below the device's maximum).
std::vector<Finding> check_pcie_links(const HostInventory& inv);
// Kernel "limited by" messages: pcie_limited_at_boot, error for devices on the GPU/HCA
// paths, info for the others.
std::vector<Finding> check_kmsg(const HostInventory& inv);
// ACS P2P redirection on the bridges between each paired GPU and HCA: acs_p2p_redirect
// (error per bridge); acs_unreadable (one warning) when config space was too short to tell.
std::vector<Finding> check_acs(const HostInventory& inv, const std::vector<Pair>& pairs);
// no_peer_memory (error) when GPUs and HCAs exist but neither a peer-memory module nor
// dma-buf is available.
std::vector<Finding> check_peer_memory(const HostInventory& inv);
// gpu_hca_distance (error: pair beyond e.max_distance), gpu_unpaired / hca_unpaired
// (warning), no_hca (error: GPUs but no HCA).
std::vector<Finding> check_pairing(const HostInventory& inv, const std::vector<Pair>& pairs, const Expectations& e);
// hca_firmware, hca_port_down, hca_rate, hca_link_layer; gpu_count / hca_count.
std::vector<Finding> check_hcas(const HostInventory& inv, const Expectations& e);
std::vector<Finding> check_counts(const HostInventory& inv, const Expectations& e);

// Below this RLIMIT_MEMLOCK a burn's registrations can fail when its pinning is unknown: one
// bidirectional flow of 4 QPs x 8 MiB messages pins 64 MiB of host memory.
constexpr uint64_t kMemlockFloor = 64ull << 20;
// memlock_low: RLIMIT_MEMLOCK below e.pinned_bytes (error) or, with that unknown, below
// kMemlockFloor (warning). Nothing when unlimited, with CAP_IPC_LOCK, or not read.
std::vector<Finding> check_memlock(const HostInventory& inv, const Expectations& e);

// All of the above, plus nothing_to_check (info) when there is neither GPU nor HCA.
std::vector<Finding> check_all(const HostInventory& inv, const std::vector<Pair>& pairs, const Expectations& e);

}  // namespace ibburn::host
