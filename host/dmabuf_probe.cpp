#include "host/dmabuf_probe.h"

namespace ibburn::host {

DmaBufResult probe_dmabuf_verbs(const HostInventory& inv) {
  if (inv.hcas.empty()) return {DmaBuf::Unknown, "not probed: no HCA"};
  return rdma::probe_dmabuf(rdma::system_verbs(), inv.hcas.front().name);
}

}  // namespace ibburn::host
