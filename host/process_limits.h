#pragma once
// This process's limits that decide whether RDMA registration can work: RLIMIT_MEMLOCK and
// CAP_IPC_LOCK (which lifts it).
#include <string>

#include "host/inventory.h"

namespace ibburn::host {

// Whether a /proc/<pid>/status text's effective capabilities (CapEff) hold CAP_IPC_LOCK.
bool has_ipc_lock(const std::string& proc_status);

// The running process's limit and capability (getrlimit and /proc/self/status).
MemlockLimit read_memlock_limit(const std::string& proc_status_path = "/proc/self/status");

}  // namespace ibburn::host
