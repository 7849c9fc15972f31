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

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA";              \
    if (device_count() == 0) GTEST_SKIP() << "no GPU visible to this process"; \
  } while (0)

TEST(GpuMemory, WithoutCudaEveryGpuCallSaysSo) {
  if (built_with_cuda()) GTEST_SKIP() << "built with CUDA";
  EXPECT_EQ(device_count(), 0);
  try {
    DeviceBuffer b(0, 1 << 20);
    FAIL();
  } catch (const EnvironmentError& e) {
    EXPECT_NE(std::string(e.what()).find("built without CUDA"), std::string::npos);
  }
}

TEST(GpuMemory, MissingGpuIsAnEnvironmentError) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA";
  EXPECT_THROW(DeviceBuffer(device_count(), 4096), EnvironmentError);  // one past the last
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
  const int fd = b.export_dmabuf();
  EXPECT_GE(fd, 0);
  ::close(fd);
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
  r.export_dmabuf = [&] { return b.export_dmabuf(); };
  const GpuRegistration reg = register_gpu_memory(api, pd.get(), r);
  rdma::MemoryRegion mr(&api, reg.mr);
  std::cout << "GPU memory registered through " << reg.how << "\n";
  EXPECT_NE(mr.get(), nullptr);
}

}  // namespace
}  // namespace ibburn::cuda
