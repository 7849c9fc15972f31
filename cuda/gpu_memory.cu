// GPU payload memory and pattern kernels (nvcc build).
#include <cuda.h>
#include <cuda_runtime.h>

#include <string>

#include "common/payload_pattern.h"
#include "common/error.h"
#include "cuda/gpu_memory.h"

namespace ibburn::cuda {
namespace {

constexpr size_t kGranularity = 2u << 20;

// "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version"
std::string error_text(cudaError_t rc) { return std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc); }

void check(cudaError_t rc, const std::string& what) {
  if (rc != cudaSuccess) {
    throw EnvironmentError(what + " failed: " + error_text(rc));
  }
}

// A driver API function, found through the runtime so no libcuda link is needed; nullptr
// when the driver lacks it. `version`: the CUDA version that introduced it.
void* driver_function(const char* name, int version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
  // Ask for the ABI of the version that introduced the function (the unversioned call is gone in CUDA 13).
  const cudaError_t rc = cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &found);
#else
  (void)version;
  const cudaError_t rc = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found);
#endif
  return rc == cudaSuccess && found == cudaDriverEntryPointSuccess ? fn : nullptr;
}

// "CUDA_ERROR_NOT_SUPPORTED (801)"; the number alone when the driver cannot name it.
std::string driver_error(CUresult rc) {
  using GetName = CUresult (*)(CUresult, const char**);
  const char* name = nullptr;
  if (void* fn = driver_function("cuGetErrorName", 6000)) reinterpret_cast<GetName>(fn)(rc, &name);
  const std::string number = std::to_string(static_cast<int>(rc));
  return name != nullptr ? std::string(name) + " (" + number + ")" : "CUresult " + number;
}

__global__ void fill_kernel(uint64_t* words, size_t n, uint32_t flow, uint64_t seq) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    words[i] = pattern_word(flow, seq, i);
  }
}

__global__ void mismatch_kernel(const uint64_t* words, size_t n, uint32_t flow, uint64_t seq, unsigned long long* bad) {
  unsigned long long local = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    local += words[i] != pattern_word(flow, seq, i) ? 1 : 0;
  }
  if (local != 0) atomicAdd(bad, local);
}

constexpr int kThreads = 256;
int blocks_for(size_t n) {
  const size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<int>(b < 1024 ? (b == 0 ? 1 : b) : 1024);
}

// Selects the buffer's GPU for the calls that follow (runtime calls act on the current one).
void use(int gpu) { check(cudaSetDevice(gpu), "cudaSetDevice(" + std::to_string(gpu) + ")"); }

}  // namespace

bool built_with_cuda() { return true; }

GpuCount device_count() {
  int n = 0;
  const cudaError_t rc = cudaGetDeviceCount(&n);
  return rc == cudaSuccess ? GpuCount{n, ""} : GpuCount{0, error_text(rc)};
}

int device_at_pci_address(const std::string& bdf) {
  int device = -1;
  return cudaDeviceGetByPCIBusId(&device, bdf.c_str()) == cudaSuccess ? device : -1;
}

DeviceBuffer::DeviceBuffer(int gpu, size_t bytes) : gpu_(gpu), size_(bytes) {
  const GpuCount n = device_count();
  if (gpu < 0 || gpu >= n.count) {
    throw EnvironmentError("GPU " + std::to_string(gpu) + " requested but " + std::to_string(n.count) +
                           " GPU(s) are visible" + (n.error.empty() ? "" : " (cudaGetDeviceCount: " + n.error + ")"));
  }
  use(gpu);
  int major = 0, flush_options = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, gpu), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&flush_options, cudaDevAttrGPUDirectRDMAFlushWritesOptions, gpu),
        "cudaDeviceGetAttribute");
  flush_ = needs_gpudirect_flush(major) && (flush_options & cudaFlushGPUDirectRDMAWritesOptionHost) != 0;
  allocated_ = (bytes + kGranularity - 1) / kGranularity * kGranularity;
  check(cudaMalloc(&data_, allocated_), "cudaMalloc of " + std::to_string(allocated_) + " bytes");
  try {
    // Verification runs at every immediate: allocate its counter once, not per check.
    check(cudaMalloc(&mismatch_counter_, sizeof(unsigned long long)), "cudaMalloc");
    check(cudaMemset(data_, 0, allocated_), "cudaMemset");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  } catch (...) {
    cudaFree(mismatch_counter_);
    cudaFree(data_);
    throw;
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) {
    cudaSetDevice(gpu_);
    cudaFree(mismatch_counter_);
    cudaFree(data_);
  }
}

void DeviceBuffer::fill_pattern(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) {
  use(gpu_);
  const size_t n = bytes / 8;
  fill_kernel<<<blocks_for(n), kThreads>>>(static_cast<uint64_t*>(data_) + offset / 8, n, flow, seq);
  check(cudaGetLastError(), "pattern fill kernel launch");
  check(cudaDeviceSynchronize(), "pattern fill kernel");
}

uint64_t DeviceBuffer::count_mismatches(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) const {
  use(gpu_);
  if (flush_) {
    check(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                             cudaFlushGPUDirectRDMAWritesToOwner),
          "cudaDeviceFlushGPUDirectRDMAWrites");
  }
  auto* bad = static_cast<unsigned long long*>(mismatch_counter_);
  check(cudaMemset(bad, 0, sizeof *bad), "cudaMemset");
  const size_t n = bytes / 8;
  mismatch_kernel<<<blocks_for(n), kThreads>>>(static_cast<const uint64_t*>(data_) + offset / 8, n, flow, seq, bad);
  check(cudaGetLastError(), "pattern verify kernel launch");
  unsigned long long result = 0;
  check(cudaMemcpy(&result, bad, sizeof result, cudaMemcpyDeviceToHost), "pattern verify kernel");
  return result;
}

void DeviceBuffer::copy_to_host(void* dst, size_t offset, size_t bytes) const {
  use(gpu_);
  check(cudaMemcpy(dst, static_cast<const char*>(data_) + offset, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

void DeviceBuffer::copy_from_host(size_t offset, const void* src, size_t bytes) {
  use(gpu_);
  check(cudaMemcpy(static_cast<char*>(data_) + offset, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
}

int DeviceBuffer::export_dmabuf(uint64_t base, size_t length) const {
  using GetHandle = CUresult (*)(void*, CUdeviceptr, size_t, CUmemRangeHandleType, unsigned long long);
  const auto start = reinterpret_cast<uint64_t>(data_);
  if (base < start || base + length > start + allocated_) {
    throw EnvironmentError("dma-buf export of a range outside the GPU allocation");
  }
  void* fn = driver_function("cuMemGetHandleForAddressRange", 11070);
  if (fn == nullptr) {
    throw EnvironmentError(
        "the CUDA driver has no cuMemGetHandleForAddressRange (driver older "
        "than CUDA 11.7): no dma-buf export");
  }
  use(gpu_);
  // Asked up front (as perftest does) so the refusal names the cause, not a bare export failure.
  using DeviceGet = CUresult (*)(CUdevice*, int);
  using Attribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
  void* get = driver_function("cuDeviceGet", 2000);
  void* attribute = driver_function("cuDeviceGetAttribute", 2000);
  CUdevice device{};
  int dmabuf = 1;
  if (get != nullptr && attribute != nullptr && reinterpret_cast<DeviceGet>(get)(&device, gpu_) == CUDA_SUCCESS &&
      reinterpret_cast<Attribute>(attribute)(&dmabuf, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, device) == CUDA_SUCCESS &&
      dmabuf == 0) {
    throw EnvironmentError("GPU " + std::to_string(gpu_) +
                           " cannot export dma-buf (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0: the proprietary "
                           "kernel module, or a kernel without dma-buf)");
  }
  int fd = -1;
  const CUresult rc = reinterpret_cast<GetHandle>(fn)(&fd, static_cast<CUdeviceptr>(base), length,
                                                      CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
  if (rc != CUDA_SUCCESS || fd < 0) {
    throw EnvironmentError("cuMemGetHandleForAddressRange(DMA_BUF_FD) failed: " + driver_error(rc) +
                           " (kernel or driver without dma-buf support)");
  }
  return fd;
}

}  // namespace ibburn::cuda
