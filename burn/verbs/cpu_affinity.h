#pragma once
// Worker threads run on the CPUs next to their HCA (the device's local_cpulist in sysfs):
// otherwise they inherit the rank's MPI binding, which for np > 2 often sits on the other
// socket, and every busy-polling worker of a rank shares it.
#include <optional>
#include <string>
#include <vector>

namespace ibburn::burn::verbs {

// Pure: a kernel CPU list ("0-3,8,10-11") as CPU numbers, ascending; nullopt when malformed.
std::optional<std::vector<int>> parse_cpulist(const std::string& text);

// <root>/class/infiniband/<device>/device/local_cpulist, parsed; empty when unknown.
std::vector<int> hca_local_cpus(const std::string& device, const std::string& sysfs_root = "/sys");

// Pins the calling thread to `cpus`; false (the thread keeps its binding) when the list is
// empty or the kernel refuses it (CPUs outside the cgroup's cpuset).
bool pin_current_thread(const std::vector<int>& cpus);

}  // namespace ibburn::burn::verbs
