#include "host/process_limits.h"

#include <sstream>

#include <fmt/format.h>

#include "host/checks.h"
#include "host/sysfs_reader.h"
#include "rdma/verbs_objects.h"

namespace ibburn::host {
namespace {

constexpr int kCapIpcLock = 14;  // linux/capability.h

std::string mib(uint64_t bytes) { return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1 << 20)); }

}  // namespace

bool has_ipc_lock(const std::string& proc_status) {
  std::istringstream in(proc_status);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("CapEff:", 0) != 0) continue;
    const unsigned long long caps = std::strtoull(line.c_str() + 7, nullptr, 16);
    return (caps >> kCapIpcLock) & 1;
  }
  return false;
}

MemlockLimit read_memlock_limit(const std::string& proc_status_path) {
  MemlockLimit m;
  m.read = true;
  m.bytes = rdma::memlock_limit();
  m.ipc_lock = has_ipc_lock(read_sysfs_text(proc_status_path).value_or(""));
  return m;
}

std::vector<Finding> check_memlock(const HostInventory& inv, const Expectations& e) {
  const MemlockLimit& m = inv.memlock;
  if (!m.read || !m.bytes || m.ipc_lock) return {};
  const uint64_t need = e.pinned_bytes.value_or(kMemlockFloor);
  if (*m.bytes >= need) return {};
  const std::string what = e.pinned_bytes ? "each burn rank pins at least " + mib(need) + " of host memory"
                                          : "a burn pins up to " + mib(need) + " per rank (4 QPs x 8 MiB, both ways)";
  Finding f{FindingKind::MemlockLow,
            e.pinned_bytes ? Severity::Error : Severity::Warning,
            fmt::format("RLIMIT_MEMLOCK is {} KiB (ulimit -l) and {}: ibv_reg_mr will fail with ENOMEM. Set memlock "
                        "unlimited (limits.conf, LimitMEMLOCK=infinity, Slurm PropagateResourceLimits) where the "
                        "ranks start (mpirun/ssh/srun pass their own limit)",
                        *m.bytes / 1024, what),
            {},
            {{"memlock_bytes", *m.bytes}, {"needed_bytes", need}}};
  return {f};
}

}  // namespace ibburn::host
