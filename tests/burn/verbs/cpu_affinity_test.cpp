// Worker placement: the kernel's CPU-list syntax, the HCA's list from a fixture sysfs tree,
// and pinning a thread.
#include "burn/verbs/cpu_affinity.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/support/temp_dir.h"

namespace ibburn::testing {
namespace {

using namespace burn::verbs;
using Cpus = std::vector<int>;

TEST(CpuAffinity, ParsesRangesAndSingles) {
  EXPECT_EQ(parse_cpulist("0-3,8,10-11\n"), (Cpus{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpulist("5"), (Cpus{5}));
  EXPECT_EQ(parse_cpulist("56-111,168-223")->size(), 112u);  // a DGX socket with SMT
  EXPECT_EQ(parse_cpulist("3,1-2,2"), (Cpus{1, 2, 3}));
}

TEST(CpuAffinity, RefusesMalformedLists) {
  for (const char* bad : {"", "-", "3-1", "1,,2", "1,", "a", "0-", "1-2-3", "99999"}) {
    EXPECT_EQ(parse_cpulist(bad), std::nullopt) << bad;
  }
}

TEST(CpuAffinity, TheHcaListComesFromSysfs) {
  TempDir tmp;
  const std::filesystem::path dev = std::filesystem::path(tmp.path()) / "class/infiniband/mlx5_7/device";
  std::filesystem::create_directories(dev);
  std::ofstream(dev / "local_cpulist") << "56-59,168\n";
  EXPECT_EQ(hca_local_cpus("mlx5_7", tmp.path()), (Cpus{56, 57, 58, 59, 168}));
  EXPECT_TRUE(hca_local_cpus("mlx5_0", tmp.path()).empty());  // no such device: unknown
}

TEST(CpuAffinity, PinsTheCallingThreadOnly) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  int first = -1;
  for (int c = 0; c < CPU_SETSIZE && first < 0; ++c) {
    if (CPU_ISSET(c, &allowed)) first = c;
  }
  ASSERT_GE(first, 0);
  bool pinned = false;
  int cpus_after = 0;
  std::thread([&] {
    pinned = pin_current_thread({first});
    cpu_set_t now;
    sched_getaffinity(0, sizeof now, &now);
    cpus_after = CPU_COUNT(&now);
  }).join();
  EXPECT_TRUE(pinned);
  EXPECT_EQ(cpus_after, 1);
  cpu_set_t main_now;
  ASSERT_EQ(sched_getaffinity(0, sizeof main_now, &main_now), 0);
  EXPECT_EQ(CPU_COUNT(&main_now), CPU_COUNT(&allowed));  // the rank's own binding is untouched
  EXPECT_FALSE(pin_current_thread({}));
}

}  // namespace
}  // namespace ibburn::testing
