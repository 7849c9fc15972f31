// The CPU-only build (no nvcc found): GPU memory is unavailable and says why.
#include "common/error.h"
#include "cuda/gpu_memory.h"

namespace ibburn::cuda {
namespace {

[[noreturn]] void no_cuda() {
  throw EnvironmentError(
      "GPU memory requested, but ibburn was built without CUDA "
      "(rebuild on a machine with the CUDA toolkit / nvcc)");
}

}  // namespace

bool built_with_cuda() { return false; }
GpuCount device_count() { return {0, "built without CUDA"}; }
int device_at_pci_address(const std::string&) { return -1; }

DeviceBuffer::DeviceBuffer(int gpu, size_t bytes) : gpu_(gpu), size_(bytes) { no_cuda(); }
DeviceBuffer::~DeviceBuffer() = default;
void DeviceBuffer::fill_pattern(size_t, size_t, uint32_t, uint64_t) { no_cuda(); }
uint64_t DeviceBuffer::count_mismatches(size_t, size_t, uint32_t, uint64_t) const { no_cuda(); }
void DeviceBuffer::copy_to_host(void*, size_t, size_t) const { no_cuda(); }
void DeviceBuffer::copy_from_host(size_t, const void*, size_t) { no_cuda(); }
int DeviceBuffer::export_dmabuf(uint64_t, size_t) const { no_cuda(); }

}  // namespace ibburn::cuda
