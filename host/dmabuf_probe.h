#pragma once
// Whether the HCA driver can register dma-buf memory (the GPUDirect path that needs no
// peer-memory module). The probe is injectable so the checks run on fixtures without verbs.
#include <functional>
#include <string>

#include "host/inventory.h"

namespace ibburn::host {

struct DmaBufResult {
  DmaBuf state = DmaBuf::Unknown;
  std::string note;  // how it was decided, or why it could not be
};
using DmaBufProbe = std::function<DmaBufResult(const HostInventory&)>;

// Opens the first HCA of the inventory with libibverbs and calls
// ibv_reg_dmabuf_mr(pd, 0, 0, 0, fd=-1, 0): EBADF means the driver took the dma-buf path
// (supported), EOPNOTSUPP/EPROTONOSUPPORT means it has none. Unknown, with a note, when
// there is no HCA or verbs cannot open it.
DmaBufResult probe_dmabuf_verbs(const HostInventory& inv);

}  // namespace ibburn::host
