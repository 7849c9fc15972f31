#include "cuda/gpu_registration.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "rdma/gpudirect.h"

namespace ibburn::cuda {

const char* to_string(RegistrationPath p) { return p == RegistrationPath::DmaBuf ? "dma-buf" : "peer memory"; }

GpuRegistration register_gpu_memory(const rdma::VerbsApi& api, ibv_pd* pd, const GpuRegistrationRequest& r) {
  std::string dmabuf_why;
  if (rdma::probe_dmabuf(api, pd, "the HCA").state == rdma::DmaBuf::Unsupported) {
    dmabuf_why = "the RDMA stack does not support ibv_reg_dmabuf_mr (kernel < 5.12, old rdma-core or HCA driver)";
  } else {
    try {
      const int fd = r.export_dmabuf();
      errno = 0;
      ibv_mr* mr = api.reg_dmabuf_mr(pd, 0, r.length, reinterpret_cast<uint64_t>(r.device_ptr), fd, r.access);
      const int err = errno;
      ::close(fd);  // the MR holds its own reference to the dma-buf
      if (mr != nullptr) return {mr, RegistrationPath::DmaBuf, "dma-buf"};
      dmabuf_why = std::string("ibv_reg_dmabuf_mr failed: ") + std::strerror(err);
    } catch (const Error& e) {
      dmabuf_why = e.what();
    }
  }
  std::string peer_why;
  const auto peers = rdma::peer_memory_modules(r.sysfs_root);
  if (peers.empty()) {
    peer_why = "no peer-memory module (nvidia_peermem not loaded: no " + r.sysfs_root +
               "/module/nvidia_peermem/version or " + r.sysfs_root + "/kernel/mm/memory_peers/nv_mem*)";
  } else {
    errno = 0;
    ibv_mr* mr = api.reg_mr(pd, r.device_ptr, r.length, r.access);
    if (mr != nullptr) return {mr, RegistrationPath::PeerMemory, "peer memory (" + peers.front().dir + "/version)"};
    peer_why = std::string("ibv_reg_mr on the device pointer failed: ") + std::strerror(errno);
  }
  throw EnvironmentError(
      "GPU memory cannot be registered with the HCA (GPUDirect RDMA unavailable). "
      "dma-buf: " +
      dmabuf_why + "; peer memory: " + peer_why +
      ". Load nvidia_peermem, or use a dma-buf capable kernel and driver; "
      "or run without --gpu");
}

}  // namespace ibburn::cuda
