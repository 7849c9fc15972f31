#include "cuda/gpu_registration.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace ibburn::cuda {

DmabufSupport probe_dmabuf(const burn::verbs::VerbsApi& api, ibv_pd* pd) {
  errno = 0;
  ibv_mr* mr = api.reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
  if (mr != nullptr) {  // no stack accepts fd -1; do not leak it if one does
    api.dereg_mr(mr);
    return DmabufSupport::Unknown;
  }
  if (errno == EBADF) return DmabufSupport::Supported;
  if (errno == EOPNOTSUPP || errno == EPROTONOSUPPORT) return DmabufSupport::Unsupported;
  return DmabufSupport::Unknown;
}

std::string find_peer_memory(const std::string& sysfs_root) {
  for (const char* rel : {"/kernel/mm/memory_peers/nv_mem/version",
                          "/kernel/mm/memory_peers/nv_mem_nc/version", "/module/nvidia_peermem/version"}) {
    std::error_code ec;
    if (std::filesystem::exists(sysfs_root + rel, ec)) return sysfs_root + rel;
  }
  return "";
}

const char* to_string(RegistrationPath p) {
  return p == RegistrationPath::DmaBuf ? "dma-buf" : "peer memory";
}

GpuRegistration register_gpu_memory(const burn::verbs::VerbsApi& api, ibv_pd* pd,
                                    const GpuRegistrationRequest& r) {
  std::string dmabuf_why;
  const DmabufSupport support = probe_dmabuf(api, pd);
  if (support == DmabufSupport::Unsupported) {
    dmabuf_why = "the RDMA stack does not support ibv_reg_dmabuf_mr (kernel < 5.12, old rdma-core or HCA driver)";
  } else {
    try {
      const int fd = r.export_dmabuf();
      errno = 0;
      ibv_mr* mr = api.reg_dmabuf_mr(pd, 0, r.length, reinterpret_cast<uint64_t>(r.device_ptr), fd,
                                     r.access);
      const int err = errno;
      ::close(fd);  // the MR holds its own reference to the dma-buf
      if (mr != nullptr) return {mr, RegistrationPath::DmaBuf, "dma-buf"};
      dmabuf_why = std::string("ibv_reg_dmabuf_mr failed: ") + std::strerror(err);
    } catch (const Error& e) {
      dmabuf_why = e.what();
    }
  }
  std::string peer_why;
  const std::string marker = find_peer_memory(r.sysfs_root);
  if (marker.empty()) {
    peer_why = "no peer-memory module (nvidia_peermem not loaded: no " + r.sysfs_root +
               "/module/nvidia_peermem/version or " + r.sysfs_root + "/kernel/mm/memory_peers/nv_mem*)";
  } else {
    errno = 0;
    ibv_mr* mr = api.reg_mr(pd, r.device_ptr, r.length, r.access);
    if (mr != nullptr) return {mr, RegistrationPath::PeerMemory, "peer memory (" + marker + ")"};
    peer_why = std::string("ibv_reg_mr on the device pointer failed: ") + std::strerror(errno);
  }
  throw EnvironmentError("GPU memory cannot be registered with the HCA (GPUDirect RDMA unavailable). "
                         "dma-buf: " + dmabuf_why + "; peer memory: " + peer_why +
                         ". Load nvidia_peermem, or use a dma-buf capable kernel and driver; "
                         "or run without --gpu");
}

}  // namespace ibburn::cuda
