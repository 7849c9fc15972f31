#pragma once
// Registering GPU memory with the HCA (GPUDirect RDMA). Preferred: dma-buf (the GPU driver
// exports the range as a dma-buf fd, ibv_reg_dmabuf_mr maps it; upstream kernels >= 5.12).
// Fallback: peer memory (nvidia_peermem / nv_mem: plain ibv_reg_mr on the device pointer).
// With neither, GPU mode refuses to start and says what is missing. Plain C++ on the verbs
// table, so the decision logic is tested against the software HCA without a GPU.
#include <cstddef>
#include <functional>
#include <string>

#include "rdma/verbs_api.h"

namespace ibburn::cuda {

enum class RegistrationPath { DmaBuf, PeerMemory };
const char* to_string(RegistrationPath p);

struct GpuRegistrationRequest {
  void* device_ptr = nullptr;
  size_t length = 0;
  int access = 0;
  std::function<int()> export_dmabuf;  // returns a dma-buf fd (closed here) or throws
  std::string sysfs_root = "/sys";
};

struct GpuRegistration {
  ibv_mr* mr = nullptr;  // the caller owns it (wrap it in rdma::MemoryRegion)
  RegistrationPath path = RegistrationPath::DmaBuf;
  std::string how;  // "dma-buf" / "peer memory (/sys/module/nvidia_peermem/version)"
};

// Throws EnvironmentError naming why each path failed when neither works.
GpuRegistration register_gpu_memory(const rdma::VerbsApi& api, ibv_pd* pd, const GpuRegistrationRequest& request);

}  // namespace ibburn::cuda
