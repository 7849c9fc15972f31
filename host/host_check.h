#pragma once
// `ibburn host check`: is this host ready for a GPUDirect burn, and if not, why. The burn
// engine calls check_host() on one rank per host and takes `pairing` as each HCA's GPU.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding.h"
#include "host/distance.h"
#include "host/dmabuf_probe.h"
#include "host/expectations.h"
#include "host/inventory.h"

namespace ibburn::host {

struct CheckOptions {
  std::string sysfs_root = "/sys";
  // A saved kernel log (dmesg, journalctl -k or /dev/kmsg records). Unset: /dev/kmsg on the
  // live system, nothing for another sysfs root (its log is not this kernel's).
  std::optional<std::string> kmsg_file;
  std::string kmsg_device = "/dev/kmsg";
  std::optional<std::string> expect_file;  // parse_expectations() format
  // Unset: libibverbs on the live system, "not probed" for another sysfs root.
  DmaBufProbe dmabuf_probe;
  // Host memory one burn rank will pin (MRs), when the caller knows it: checked against
  // RLIMIT_MEMLOCK. Unset: against kMemlockFloor.
  std::optional<uint64_t> pinned_bytes;
};

struct HostReport {
  HostInventory inventory;
  std::vector<Pair> pairing;  // GPU order; the default GPU of each HCA
  std::vector<Finding> findings;
  bool nothing_to_check() const {
    return inventory.gpus.empty() && inventory.hcas.empty() && inventory.soft_hcas.empty();
  }
};

// Pure: pairs and checks an inventory.
HostReport evaluate(HostInventory inv, const Expectations& e);
// Reads sysfs, the kernel log and the expectations, probes dma-buf, then evaluate().
// Throws InputError for a missing sysfs root, kernel log file or a bad expectations file.
HostReport check_host(const CheckOptions& options);

// {"findings":[...], "gpus":[...], "hcas":[...], "pairing":[...], "peer_memory":{...}, ...}
nlohmann::json to_json(const HostReport& r);
// What was found (counts, pairing, peer memory), then print_summary of the findings.
void print_report(std::ostream& os, const HostReport& r);

}  // namespace ibburn::host
