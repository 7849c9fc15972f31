#pragma once
// GPU device memory for payloads, and the pattern kernels that fill and verify it. Plain C++
// (no CUDA types) so the same header serves the nvcc build and the CPU-only build, in which
// every GPU call throws EnvironmentError("... built without CUDA ...").
#include <cstddef>
#include <cstdint>
#include <string>

namespace ibburn::cuda {

// Whether this binary was built with CUDA.
bool built_with_cuda();
// GPUs visible to this process, and why none are when CUDA itself failed.
struct GpuCount {
  int count = 0;
  std::string error;  // "cudaErrorInsufficientDriver: ..." (a CUDA 13 runtime on a 12.x driver); "" otherwise
};
// 0 without CUDA, without a driver or without a GPU; the error says which.
GpuCount device_count();

// Writes by the HCA into GPU memory are not guaranteed visible to a kernel launched after the
// completion on compute capability < 9.0 (A100): flush them first (NCCL does the same).
constexpr bool needs_gpudirect_flush(int compute_capability_major) { return compute_capability_major < 9; }
// The CUDA ordinal of the GPU at a PCI address ("0000:1a:00.0"); -1 when CUDA does not see
// it (or ibburn was built without CUDA).
int device_at_pci_address(const std::string& bdf);

class DeviceBuffer {
 public:
  // Allocates `bytes` (rounded up to 2 MiB, the granularity dma-buf export wants) on `gpu`.
  // Throws EnvironmentError when there is no such GPU or no CUDA.
  DeviceBuffer(int gpu, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }            // as requested
  size_t allocated() const { return allocated_; }  // rounded
  int gpu() const { return gpu_; }

  // Words [offset, offset+bytes) := pattern_word(flow, seq, i), i from 0 (a kernel).
  void fill_pattern(size_t offset, size_t bytes, uint32_t flow, uint64_t seq);
  // Words of [offset, offset+bytes) differing from the pattern (a kernel and a reduction),
  // after flushing the HCA's writes where the GPU needs it (needs_gpudirect_flush).
  uint64_t count_mismatches(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) const;
  void copy_to_host(void* dst, size_t offset, size_t bytes) const;
  void copy_from_host(size_t offset, const void* src, size_t bytes);

  // A dma-buf file descriptor for [base, base + length), a page-aligned range inside the
  // allocation (cuMemGetHandleForAddressRange, found through cudaGetDriverEntryPoint so no
  // libcuda link is needed). The caller closes it. Throws EnvironmentError, with the driver's
  // error name, when the driver cannot export (too old, or no dma-buf).
  int export_dmabuf(uint64_t base, size_t length) const;

 private:
  int gpu_;
  size_t size_;
  size_t allocated_ = 0;
  void* data_ = nullptr;
  void* mismatch_counter_ = nullptr;  // device word the verify kernel adds into
  bool flush_ = false;                // flush GPUDirect writes before verifying
};

}  // namespace ibburn::cuda
