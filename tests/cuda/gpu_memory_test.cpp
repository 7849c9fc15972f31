#include "cuda/gpu_memory.h"
#include "common/payload_pattern.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <vector>

#include "burn/transport.h"
#include "rdma/verbs_objects.h"
#include "common/error.h"
#include "cuda/gpu_registration.h"

namespace ibburn::cuda {
namespace {

#define REQUIRE_GPU()                                                                          \
  do {                                                                                         \
    if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA";                              \
    if (device_count().count == 0) GTEST_SKIP() << "no GPU visible: " << device_count().error; \
  } while (0)

TEST(GpuMemory, WithoutCudaEveryGpuCallSaysSo) {
  if (built_with_cuda()) GTEST_SKIP() << "built with CUDA";
  EXPECT_EQ(device_count().count, 0);
  EXPECT_EQ(device_count().error, "built without CUDA");
  try {
    DeviceBuffer b(0, 1 << 20);
    FAIL();
  } catch (const EnvironmentError& e) {
    EXPECT_NE(std::string(e.what()).find("built without CUDA"), std::string::npos);
  }
}

TEST(GpuMemory, MissingGpuIsAnEnvironmentError) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA";
  EXPECT_THROW(DeviceBuffer(device_count().count, 4096), EnvironmentError);  // one past the last
}

TEST(GpuMemory, NoGpuSaysWhatCudaAnswered) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA";
  const GpuCount n = device_count();
  if (n.count > 0) GTEST_SKIP() << n.count << " GPU(s) visible";
  EXPECT_NE(n.error.find("cudaError"), std::string::npos) << n.error;  // e.g. cudaErrorNoDevice
  try {
    DeviceBuffer b(0, 4096);
    FAIL();
  } catch (const EnvironmentError& e) {
    EXPECT_NE(std::string(e.what()).find("cudaGetDeviceCount: cudaError"), std::string::npos) << e.what();
  }
}

TEST(GpuMemory, FlushBeforeVerifyOnlyBeforeHopper) {
  EXPECT_TRUE(needs_gpudirect_flush(8));   // A100
  EXPECT_FALSE(needs_gpudirect_flush(9));  // H100, H200
  EXPECT_FALSE(needs_gpudirect_flush(10));
}

TEST(GpuMemory, FillKernelWritesTheSharedPattern) {
  REQUIRE_GPU();
  DeviceBuffer b(0, 3 << 20);
  EXPECT_EQ(b.allocated(), 4u << 20);      // 2 MiB granularity for dma-buf export
  b.fill_pattern(1 << 20, 1 << 20, 9, 4);  // the second MiB only
  std::vector<uint64_t> host((2 << 20) / 8);
  b.copy_to_host(host.data(), 0, 2 << 20);
  for (size_t i = 0; i < (1 << 20) / 8; ++i) ASSERT_EQ(host[i], 0u) << i;
  for (size_t i = 0; i < (1 << 20) / 8; ++i) {
    ASSERT_EQ(host[(1 << 20) / 8 + i], pattern_word(9, 4, i)) << i;
  }
}

TEST(GpuMemory, VerifyKernelCountsDifferingWords) {
  REQUIRE_GPU();
  DeviceBuffer b(0, 1 << 20);
  b.fill_pattern(0, 1 << 20, 2, 0);
  EXPECT_EQ(b.count_mismatches(0, 1 << 20, 2, 0), 0u);
  EXPECT_EQ(b.count_mismatches(0, 1 << 20, 2, 1), (1u << 20) / 8);  // another message
  const uint64_t junk[2] = {1, 2};
  b.copy_from_host(8 * 1000, &junk[0], 8);
  b.copy_from_host(8 * 70000, &junk[1], 8);
  EXPECT_EQ(b.count_mismatches(0, 1 << 20, 2, 0), 2u);
}

TEST(GpuMemory, ExportsTheBufferAsDmabuf) {
  REQUIRE_GPU();
  DeviceBuffer b(0, 8 << 20);
  const auto base = reinterpret_cast<uint64_t>(b.data());
  const int fd = b.export_dmabuf(base, b.allocated());
  EXPECT_GE(fd, 0);
  ::close(fd);
  const int part = b.export_dmabuf(base + 4096, 8192);  // an aligned range inside it
  EXPECT_GE(part, 0);
  ::close(part);
  EXPECT_THROW(b.export_dmabuf(base, b.allocated() + 4096), EnvironmentError);
}

// With an HCA present too: the full GPUDirect registration, and which path it took.
TEST(GpuMemory, RegistersWithTheHcaWhenOneIsPresent) {
  REQUIRE_GPU();
  const rdma::VerbsApi& api = rdma::system_verbs();
  int n = 0;
  ibv_device** list = api.get_device_list(&n);
  if (list != nullptr) api.free_device_list(list);
  if (n == 0) GTEST_SKIP() << "no RDMA device";
  rdma::DeviceList devices(api);
  rdma::Context ctx = rdma::open_context(api, devices.devices()[0]);
  rdma::ProtectionDomain pd = rdma::alloc_pd(ctx);
  DeviceBuffer b(0, 8 << 20);
  GpuRegistrationRequest r;
  r.device_ptr = b.data();
  r.length = b.size();
  r.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
  r.export_dmabuf = [&](uint64_t base, size_t length) { return b.export_dmabuf(base, length); };
  const GpuRegistration reg = register_gpu_memory(api, pd.get(), r);
  rdma::MemoryRegion mr(&api, reg.mr);
  std::cout << "GPU memory registered through " << reg.how << "\n";
  EXPECT_NE(mr.get(), nullptr);
}

}  // namespace
}  // namespace ibburn::cuda
