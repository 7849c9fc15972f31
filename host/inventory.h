#pragma once
// HostInventory: what a host check knows about one machine's GPUs, HCAs and the PCIe
// bridges between them. Built by the sysfs reader (sysfs_reader.h), checked by pure code
// (checks.h), so tests build it from plain data.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/kmsg.h"
#include "host/pcie_config.h"
#include "rdma/gpudirect.h"

namespace ibburn::host {

struct PciFunction {
  std::string bdf;                   // "0000:1a:00.0"
  std::string host_bridge;           // "pci0000:17": the root complex it hangs from
  std::vector<std::string> bridges;  // bridges above it: root port first, parent last
  uint16_t vendor = 0, device = 0;
  uint32_t class_code = 0;                         // 0x030200 for a 3D controller
  int numa_node = -1;                              // -1: the kernel does not know
  std::optional<double> speed_gts, max_speed_gts;  // current_link_speed / max_link_speed
  std::optional<int> width, max_width;             // current_link_width / max_link_width
  std::optional<PortType> port_type;               // nullopt when config space hid it
  AcsInfo acs;
  size_t config_bytes = 0;  // how much of `config` could be read (64 unprivileged)
  bool is_bridge() const { return (class_code >> 8) == 0x0604; }
};

struct Gpu {
  std::string name;  // "GPU0", numbered in PCI address order like nvidia-smi
  std::string bdf;
};

struct HcaPort {
  int number = 1;
  std::string state;       // "4: ACTIVE"
  std::string phys_state;  // "5: LinkUp"
  std::string rate;        // "400 Gb/sec (4X NDR)"
  std::string link_layer;  // "InfiniBand" or "Ethernet"
};

struct Hca {
  std::string name;  // "mlx5_0"
  std::string bdf;
  std::string fw_ver;
  std::string node_guid;
  std::vector<HcaPort> ports;
  std::string parent;  // a software device (rdma_rxe, siw): the netdev it runs on; bdf is empty
};

using rdma::DmaBuf;  // to_string(DmaBuf) is rdma::to_string, found by ADL

// This process's locked-memory budget: what MRs, CQ and QP rings may pin.
struct MemlockLimit {
  bool read = false;              // false for a fixture sysfs root: not this process's limit
  std::optional<uint64_t> bytes;  // RLIMIT_MEMLOCK (soft); nullopt = unlimited
  bool ipc_lock = false;          // CAP_IPC_LOCK: the limit does not apply
};

struct HostInventory {
  std::string sysfs_root = "/sys";
  std::map<std::string, PciFunction> pci;  // by BDF: the GPUs, the HCAs and every bridge above them
  std::vector<Gpu> gpus;
  std::vector<Hca> hcas;
  std::vector<Hca> soft_hcas;                      // no PCI function: no PCIe, firmware or GPU affinity to check
  std::map<std::string, std::string> peer_memory;  // peer-memory module -> version, e.g. nvidia_peermem
  DmaBuf dmabuf = DmaBuf::Unknown;
  std::string dmabuf_note;      // how the dma-buf answer was found, or why not
  std::vector<KmsgLimit> kmsg;  // downtrained-link messages from the kernel log
  std::string kmsg_note;        // where the log came from, or why it was not read
  MemlockLimit memlock;

  const PciFunction* find(const std::string& bdf) const;
  // "0000:1a:00.0 mlx5_0", "0000:1b:00.0 GPU0", "0000:19:01.0 bridge" or the bare BDF.
  std::string node_name(const std::string& bdf) const;
};

}  // namespace ibburn::host
