#pragma once
// The two ways an HCA can reach GPU memory (GPUDirect RDMA), probed once for every module
// that asks: dma-buf (ibv_reg_dmabuf_mr, upstream kernels >= 5.12) and peer memory
// (nvidia_peermem / nv_mem: plain ibv_reg_mr on the device pointer). The host preflight
// reports them; the GPU registration picks one.
#include <string>
#include <vector>

#include "rdma/verbs_api.h"

namespace ibburn::rdma {

enum class DmaBuf { Unknown, Supported, Unsupported };
const char* to_string(DmaBuf d);

struct DmaBufResult {
  DmaBuf state = DmaBuf::Unknown;
  std::string note;  // how it was decided, or why it could not be
};

// ibv_reg_dmabuf_mr(pd, 0, 0, 0, fd=-1, 0): EBADF means the driver took the dma-buf path
// (supported), EOPNOTSUPP/EPROTONOSUPPORT means it has none; anything else is Unknown.
// `device` names the HCA in the note.
DmaBufResult probe_dmabuf(const VerbsApi& api, ibv_pd* pd, const std::string& device);
// The same on a device opened by name (Unknown, with the reason, when it cannot be opened).
DmaBufResult probe_dmabuf(const VerbsApi& api, const std::string& device);

struct PeerMemoryModule {
  std::string name;     // nv_mem, nv_mem_nc or nvidia_peermem
  std::string dir;      // its sysfs directory
  std::string version;  // "loaded" when it declares none
};
// The loaded peer-memory modules under sysfs_root, in preference order. A loaded module has
// its directory even when it declares no version.
std::vector<PeerMemoryModule> peer_memory_modules(const std::string& sysfs_root = "/sys");

}  // namespace ibburn::rdma
