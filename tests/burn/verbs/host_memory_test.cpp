// Host payload memory: NUMA node discovery from sysfs, registration, pattern fill/verify.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/payload_pattern.h"
#include "burn/transport.h"
#include "burn/verbs/host_memory.h"
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
  EXPECT_EQ(mem->mr().length, 4u << 20);  // the whole 2 MiB-rounded mapping
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

TEST(HostMemory, HugePagesOnlyWhenTheNodeHasEnoughFree) {
  EXPECT_FALSE(plan_huge_pages(std::nullopt, 2, 0).hugetlb);  // no hugetlb in this kernel
  const HugePagePlan none = plan_huge_pages(0, 2, 0);         // none reserved: the usual case
  EXPECT_FALSE(none.hugetlb);
  EXPECT_EQ(none.note, "");
  const HugePagePlan short_node = plan_huge_pages(3, 8, 1);
  EXPECT_FALSE(short_node.hugetlb);
  EXPECT_EQ(short_node.note, "NUMA node 1 has 3 free 2 MiB huge pages, 8 needed");
  EXPECT_TRUE(plan_huge_pages(8, 8, 1).hugetlb);
  EXPECT_EQ(free_huge_pages_path("/sys", 1),
            "/sys/devices/system/node/node1/hugepages/hugepages-2048kB/free_hugepages");
  EXPECT_EQ(free_huge_pages_path("/r", -1), "/r/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");
}

TEST(HostMemory, ThpModeIsTheBracketedWord) {
  EXPECT_EQ(thp_mode("always [madvise] never"), "madvise");
  EXPECT_EQ(thp_mode("[always] madvise never"), "always");
  EXPECT_EQ(thp_mode("always madvise [never]"), "never");
  EXPECT_EQ(thp_mode(""), "");
}

// A fixture sysfs tree: free 2 MiB pages on node 0 and the THP mode.
struct PagingTree {
  PagingTree(std::optional<int> free_pages, const std::string& thp) {
    const fs::path root = tmp.path();
    const fs::path node = root / "devices/system/node/node0/hugepages/hugepages-2048kB";
    fs::create_directories(node);
    if (free_pages) std::ofstream(node / "free_hugepages") << *free_pages << "\n";
    fs::create_directories(root / "kernel/mm/transparent_hugepage");
    std::ofstream(root / "kernel/mm/transparent_hugepage/enabled") << thp << "\n";
  }
  TempDir tmp;
};

std::string description_with(const PagingTree& tree) {
  SoftHca hca;
  hca.add_device("soft0", SoftPort{});
  rdma::DeviceList list(hca.api());
  rdma::Context ctx = rdma::open_context(hca.api(), list.find("soft0"));
  rdma::ProtectionDomain pd = rdma::alloc_pd(ctx);
  return make_host_memory(pd, 3 << 20, 0, IBV_ACCESS_LOCAL_WRITE, tree.tmp.path())->description();
}

TEST(HostMemory, ThpOffMeansSmallPagesNotATransparentHugePageLabel) {
  const std::string d = description_with(PagingTree(0, "always madvise [never]"));
  EXPECT_NE(d.find("4 KiB pages"), std::string::npos) << d;
  EXPECT_EQ(d.find("transparent"), std::string::npos) << d;
}

TEST(HostMemory, ThpLabelNamesTheKernelMode) {
  const std::string d = description_with(PagingTree(0, "always [madvise] never"));
  EXPECT_NE(d.find("transparent huge pages (THP madvise)"), std::string::npos) << d;
}

TEST(HostMemory, ANodeShortOfHugePagesFallsBackWithANote) {
  const std::string d = description_with(PagingTree(1, "always [madvise] never"));
  EXPECT_EQ(d.find(", 2 MiB huge pages"), std::string::npos) << d;
  EXPECT_NE(d.find("NUMA node 0 has 1 free 2 MiB huge pages, 2 needed"), std::string::npos) << d;
}

TEST(HostMemory, FreePagesTheKernelCannotMapFallBackWithoutASignal) {
  // The tree claims plenty; when this kernel has none reserved, MAP_HUGETLB fails and is noted.
  const std::string d = description_with(PagingTree(64, "always [madvise] never"));
  const bool huge = d.find(", 2 MiB huge pages") != std::string::npos;
  EXPECT_TRUE(huge || d.find("MAP_HUGETLB failed") != std::string::npos) << d;
}

}  // namespace
}  // namespace ibburn::testing
