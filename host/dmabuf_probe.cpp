#include "host/dmabuf_probe.h"

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstring>

namespace ibburn::host {

DmaBufResult probe_dmabuf_verbs(const HostInventory& inv) {
  if (inv.hcas.empty()) return {DmaBuf::Unknown, "not probed: no HCA"};
  const std::string& name = inv.hcas.front().name;
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (!list) return {DmaBuf::Unknown, std::string("libibverbs: ") + std::strerror(errno)};
  ibv_device* dev = nullptr;
  for (int i = 0; i < n; ++i)
    if (name == ibv_get_device_name(list[i])) dev = list[i];
  DmaBufResult r{DmaBuf::Unknown, "libibverbs has no device " + name};
  if (ibv_context* ctx = dev ? ibv_open_device(dev) : nullptr) {
    if (ibv_pd* pd = ibv_alloc_pd(ctx)) {
      errno = 0;
      ibv_mr* mr = ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
      int err = errno;
      if (mr) {
        ibv_dereg_mr(mr);
        r = {DmaBuf::Unknown, "ibv_reg_dmabuf_mr accepted fd -1 on " + name};
      } else if (err == EBADF) {
        r = {DmaBuf::Supported, "ibv_reg_dmabuf_mr on " + name + " reached the dma-buf fd"};
      } else if (err == EOPNOTSUPP || err == EPROTONOSUPPORT) {
        r = {DmaBuf::Unsupported, "ibv_reg_dmabuf_mr on " + name + ": " + std::strerror(err)};
      } else {
        r = {DmaBuf::Unknown, "ibv_reg_dmabuf_mr on " + name + ": " + std::strerror(err)};
      }
      ibv_dealloc_pd(pd);
    } else {
      r = {DmaBuf::Unknown, "ibv_alloc_pd on " + name + ": " + std::strerror(errno)};
    }
    ibv_close_device(ctx);
  } else if (dev) {
    r = {DmaBuf::Unknown, "ibv_open_device " + name + ": " + std::strerror(errno)};
  }
  ibv_free_device_list(list);
  return r;
}

}  // namespace ibburn::host
