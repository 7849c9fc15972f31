#include "cuda/gpu_registration.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "rdma/gpudirect.h"

namespace ibburn::cuda {

const char* to_string(RegistrationPath p) { return p == RegistrationPath::DmaBuf ? "dma-buf" : "peer memory"; }

RegistrationChoice parse_registration_choice(const std::string& text) {
  if (text == "auto") return RegistrationChoice::Auto;
  if (text == "dmabuf") return RegistrationChoice::DmaBuf;
  if (text == "peermem") return RegistrationChoice::PeerMemory;
  throw InputError("--opt", 0, "gpu_reg=" + text + ": expected auto, dmabuf or peermem");
}

DmaBufRange dmabuf_range(uint64_t ptr, size_t length, size_t page) {
  DmaBufRange r;
  r.base = ptr / page * page;
  r.offset = ptr - r.base;
  r.length = (r.offset + length + page - 1) / page * page;
  return r;
}

std::string registration_hint(bool peer_memory_api) {
  if (peer_memory_api) {
    return "Load nvidia_peermem (modprobe nvidia_peermem), or use a dma-buf capable kernel (>= 5.12) and "
           "NVIDIA's open kernel module; or run without --gpu";
  }
  return "This kernel has no peer-memory API (inbox RDMA drivers, no MLNX_OFED), so nvidia_peermem cannot load: "
         "dma-buf is the only path, and it needs kernel >= 5.12, rdma-core >= 34 and NVIDIA's open kernel module "
         "(modinfo -F license nvidia prints \"Dual MIT/GPL\"); or run without --gpu";
}

namespace {

std::string try_dmabuf(const rdma::VerbsApi& api, ibv_pd* pd, const GpuRegistrationRequest& r, ibv_mr*& mr) {
  if (rdma::probe_dmabuf(api, pd, "the HCA").state == rdma::DmaBuf::Unsupported) {
    return "the RDMA stack does not support ibv_reg_dmabuf_mr (kernel < 5.12, old rdma-core or HCA driver)";
  }
  try {
    const auto ptr = reinterpret_cast<uint64_t>(r.device_ptr);
    const DmaBufRange range = dmabuf_range(ptr, r.length, static_cast<size_t>(::sysconf(_SC_PAGESIZE)));
    const int fd = r.export_dmabuf(range.base, range.length);
    errno = 0;
    mr = api.reg_dmabuf_mr(pd, range.offset, r.length, ptr, fd, r.access);
    const int err = errno;
    ::close(fd);  // the MR holds its own reference to the dma-buf
    return mr != nullptr ? "" : std::string("ibv_reg_dmabuf_mr failed: ") + std::strerror(err);
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace

GpuRegistration register_gpu_memory(const rdma::VerbsApi& api, ibv_pd* pd, const GpuRegistrationRequest& r) {
  std::string dmabuf_why = "not tried (gpu_reg=peermem)";
  if (r.choice != RegistrationChoice::PeerMemory) {
    ibv_mr* mr = nullptr;
    dmabuf_why = try_dmabuf(api, pd, r, mr);
    if (mr != nullptr) return {mr, RegistrationPath::DmaBuf, "dma-buf"};
  }
  std::string peer_why = "not tried (gpu_reg=dmabuf)";
  if (r.choice != RegistrationChoice::DmaBuf) {
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
  }
  std::error_code ec;
  const bool peer_api = std::filesystem::is_directory(r.sysfs_root + "/kernel/mm/memory_peers", ec);
  throw EnvironmentError(
      "GPU memory cannot be registered with the HCA (GPUDirect RDMA unavailable). "
      "dma-buf: " +
      dmabuf_why + "; peer memory: " + peer_why + ". " + registration_hint(peer_api));
}

}  // namespace ibburn::cuda
