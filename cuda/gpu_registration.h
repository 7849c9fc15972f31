#pragma once
// Registering GPU memory with the HCA (GPUDirect RDMA). Preferred: dma-buf (the GPU driver
// exports the range as a dma-buf fd, ibv_reg_dmabuf_mr maps it; upstream kernels >= 5.12).
// Fallback: peer memory (nvidia_peermem / nv_mem: plain ibv_reg_mr on the device pointer).
// With neither, GPU mode refuses to start and says what is missing. `--opt gpu_reg=` forces
// one path so each can be validated on its own. Plain C++ on the verbs table, so the
// decision logic is tested against the software HCA without a GPU.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "rdma/verbs_api.h"

namespace ibburn::cuda {

enum class RegistrationPath { DmaBuf, PeerMemory };
const char* to_string(RegistrationPath p);

// Which paths to try: both (dma-buf first), or only one.
enum class RegistrationChoice { Auto, DmaBuf, PeerMemory };
// "auto", "dmabuf" or "peermem" (the --opt gpu_reg value); throws InputError otherwise.
RegistrationChoice parse_registration_choice(const std::string& text);

// The range a dma-buf is exported for: page-aligned, covering [ptr, ptr + length); the MR
// then starts `offset` bytes into it. cudaMalloc bases are 2 MiB-aligned in practice, but
// nothing guarantees it.
struct DmaBufRange {
  uint64_t base = 0;
  uint64_t offset = 0;  // ptr - base
  size_t length = 0;    // a multiple of page
};
DmaBufRange dmabuf_range(uint64_t ptr, size_t length, size_t page);

struct GpuRegistrationRequest {
  void* device_ptr = nullptr;
  size_t length = 0;
  int access = 0;
  // Exports [base, base + length) as a dma-buf fd (closed here), or throws.
  std::function<int(uint64_t base, size_t length)> export_dmabuf;
  RegistrationChoice choice = RegistrationChoice::Auto;
  std::string sysfs_root = "/sys";
};

struct GpuRegistration {
  ibv_mr* mr = nullptr;  // the caller owns it (wrap it in rdma::MemoryRegion)
  RegistrationPath path = RegistrationPath::DmaBuf;
  std::string how;  // "dma-buf" / "peer memory (/sys/module/nvidia_peermem/version)"
};

// What to do when no path worked. nvidia_peermem loads only on a kernel with MLNX_OFED's
// peer-memory API (<sysfs>/kernel/mm/memory_peers); elsewhere dma-buf is the only way.
std::string registration_hint(bool peer_memory_api);

// Throws EnvironmentError naming why each path tried failed when none works.
GpuRegistration register_gpu_memory(const rdma::VerbsApi& api, ibv_pd* pd, const GpuRegistrationRequest& request);

}  // namespace ibburn::cuda
