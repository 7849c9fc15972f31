#pragma once
// Whether the HCA driver can register dma-buf memory (the GPUDirect path that needs no
// peer-memory module). The probe is injectable so the checks run on fixtures without verbs.
#include <functional>

#include "host/inventory.h"
#include "rdma/gpudirect.h"

namespace ibburn::host {

using rdma::DmaBufResult;
using DmaBufProbe = std::function<DmaBufResult(const HostInventory&)>;

// rdma::probe_dmabuf on the first HCA of the inventory through the installed libibverbs;
// Unknown, with a note, when there is no HCA or verbs cannot open it.
DmaBufResult probe_dmabuf_verbs(const HostInventory& inv);

}  // namespace ibburn::host
