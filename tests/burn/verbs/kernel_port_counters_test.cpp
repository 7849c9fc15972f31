// A verbs rank's port counters from a sysfs tree laid out as the kernel does: rxe's
// hw_counters, an mlx5 port's counters/ and hw_counters/ side by side.
#include "burn/verbs/kernel_port_counters.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.h"

namespace ibburn::testing {
namespace {

using burn::PortCounterValues;
using burn::verbs::read_kernel_port_counters;

void put(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(KernelPortCounters, ReadsBothDirectoriesByFileName) {
  TempDir dir;
  const std::filesystem::path port = std::filesystem::path(dir.path()) / "class/infiniband/mlx5_0/ports/1";
  put(port / "counters/port_xmit_data", "123456789\n");
  put(port / "counters/symbol_error", "0\n");
  put(port / "hw_counters/out_of_sequence", "7\n");
  put(port / "hw_counters/lifespan", "10\n");  // the refresh period, not a count
  put(port / "hw_counters/garbage", "n/a\n");
  EXPECT_EQ(read_kernel_port_counters("mlx5_0", 1, dir.path()),
            (PortCounterValues{{"port_xmit_data", 123456789}, {"symbol_error", 0}, {"out_of_sequence", 7}}));
}

TEST(KernelPortCounters, SoftRoceKeepsOnlyHwCounters) {
  TempDir dir;
  const std::filesystem::path hw = std::filesystem::path(dir.path()) / "class/infiniband/rxe0/ports/1/hw_counters";
  put(hw / "sent_pkts", "5000\n");
  put(hw / "retry_exceeded_err", "1\n");
  EXPECT_EQ(read_kernel_port_counters("rxe0", 1, dir.path()),
            (PortCounterValues{{"retry_exceeded_err", 1}, {"sent_pkts", 5000}}));
}

TEST(KernelPortCounters, ADeviceWithoutCountersHasNone) {
  TempDir dir;
  EXPECT_TRUE(read_kernel_port_counters("mlx5_9", 1, dir.path()).empty());
}

}  // namespace
}  // namespace ibburn::testing
