// Host payload memory: NUMA node discovery from sysfs, registration, pattern fill/verify.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/payload_pattern.h"
#include "burn/transport.h"
#include "burn/verbs/payload_memory.h"
#include "tests/burn/verbs/soft_hca.h"
#include "tests/support/temp_dir.h"

namespace ibburn::testing {
namespace {

using namespace burn::verbs;
namespace fs = std::filesystem;

TEST(HostMemory, NumaNodeOfTheHcaComesFromSysfs) {
  TempDir tmp;
  const fs::path root = tmp.path();
  fs::create_directories(root / "class/infiniband/mlx5_3/device");
  std::ofstream(root / "class/infiniband/mlx5_3/device/numa_node") << "1\n";
  EXPECT_EQ(rdma_device_numa_node("mlx5_3", root.string()), 1);
  EXPECT_EQ(rdma_device_numa_node("mlx5_9", root.string()), -1);  // no such device
}

TEST(HostMemory, RegistersFillsAndVerifies) {
  SoftHca hca;
  hca.add_device("soft0", SoftPort{});
  rdma::DeviceList list(hca.api());
  rdma::Context ctx = rdma::open_context(hca.api(), list.find("soft0"));
  rdma::ProtectionDomain pd = rdma::alloc_pd(ctx);
  auto mem = make_host_memory(pd, 3 << 20, -1, IBV_ACCESS_LOCAL_WRITE);
  EXPECT_EQ(mem->size(), 3u << 20);
  EXPECT_EQ(mem->mr().addr, mem->data());
  EXPECT_EQ(mem->mr().length, 3u << 20);
  EXPECT_NE(mem->description().find("host memory"), std::string::npos) << mem->description();
  EXPECT_NE(mem->description().find("pages"), std::string::npos) << mem->description();
  mem->fill(1 << 20, 1 << 20, 5, 2);
  const auto* words = static_cast<const uint64_t*>(mem->data());
  EXPECT_EQ(words[(1 << 20) / 8 + 10], pattern_word(5, 2, 10));
  EXPECT_EQ(words[0], 0u);
  EXPECT_EQ(mem->count_mismatches(1 << 20, 1 << 20, 5, 2), 0u);
  static_cast<uint64_t*>(mem->data())[(1 << 20) / 8 + 99] ^= 1;
  EXPECT_EQ(mem->count_mismatches(1 << 20, 1 << 20, 5, 2), 1u);
  EXPECT_EQ(mem->count_mismatches(0, 4096, 5, 2), 4096u / 8);  // never filled
}

}  // namespace
}  // namespace ibburn::testing
