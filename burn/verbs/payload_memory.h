#pragma once
// A registered payload buffer: host memory (NUMA-local to the HCA, huge pages when
// available) or GPU memory (cuda/, dma-buf or peer memory). The connection writes from
// and into it and verifies it through the same calls whichever memory it is.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "cuda/gpu_registration.h"
#include "rdma/verbs_objects.h"

namespace ibburn::burn::verbs {

class PayloadMemory {
 public:
  virtual ~PayloadMemory() = default;
  virtual void* data() const = 0;  // address the HCA sees (iova)
  virtual size_t size() const = 0;
  virtual const ibv_mr& mr() const = 0;
  virtual std::string description() const = 0;  // "host memory, NUMA node 1, 2 MiB huge pages"
  // Sets the 64-bit words of [offset, offset+bytes) to pattern_word(flow, seq, i).
  virtual void fill(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) = 0;
  // Counts the words of [offset, offset+bytes) that differ from pattern_word(flow, seq, i).
  virtual uint64_t count_mismatches(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) const = 0;
};

// NUMA node of an RDMA device from sysfs, -1 when unknown (no NUMA, or not a sysfs device).
int rdma_device_numa_node(const std::string& device, const std::string& sysfs_root = "/sys");

// Registers the whole 2 MiB-rounded mapping; size() stays `bytes`. sysfs_root: where the
// huge-page counts and the THP mode are read (a fixture tree in tests).
std::unique_ptr<PayloadMemory> make_host_memory(const rdma::ProtectionDomain& pd, size_t bytes, int numa_node,
                                                int access, const std::string& sysfs_root = "/sys");
// Throws EnvironmentError when GPU memory cannot be used (no CUDA build, no GPU, or no
// registration path among those `choice` allows).
std::unique_ptr<PayloadMemory> make_gpu_memory(const rdma::ProtectionDomain& pd, size_t bytes, int gpu, int access,
                                               cuda::RegistrationChoice choice = cuda::RegistrationChoice::Auto);

// The --opt gpu_reg knob (auto, dmabuf or peermem); throws InputError for anything else.
cuda::RegistrationChoice gpu_registration_choice(const std::map<std::string, std::string>& extra);

}  // namespace ibburn::burn::verbs
