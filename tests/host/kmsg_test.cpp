#include "host/kmsg.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "tests/host/sysfs_fixture.h"
#include "tests/support/temp_dir.h"

using namespace ibburn::host;

// The kernel's format: "%u.%03u Gb/s available PCIe bandwidth, limited by %s x%d link at %s
// (capable of %u.%03u Gb/s with %s x%d link)", prefixed by pci_info's "<driver> <bdf>: ".
TEST(Kmsg, ParsesTheKernelLineAsDmesgPrintsIt) {
  auto k = parse_kmsg_limit(
      "[    7.412345] mlx5_core 0000:18:00.0: 126.024 Gb/s available PCIe bandwidth, limited by "
      "32.0 GT/s PCIe x4 link at 0000:17:00.0 (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->bdf, "0000:18:00.0");
  EXPECT_EQ(k->limited_at, "0000:17:00.0");
  EXPECT_DOUBLE_EQ(k->available_gbps, 126.024);
  EXPECT_DOUBLE_EQ(k->capable_gbps, 504.112);
  EXPECT_EQ(k->speed_gts, 32.0);
  EXPECT_EQ(k->width, 4);
  EXPECT_EQ(k->capable_speed_gts, 32.0);
  EXPECT_EQ(k->capable_width, 16);
  EXPECT_EQ(k->line.rfind("0000:18:00.0: 126.024", 0), 0u);
}

TEST(Kmsg, ParsesRawKmsgRecordsUnknownPartsAndSkipsOtherLines) {
  std::string text =
      "6,1234,5678901,-;nvidia 0000:1b:00.0: 252.048 Gb/s available PCIe bandwidth, limited by "
      "16.0 GT/s PCIe x16 link at 0000:1a:01.0 (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)\n"
      " SUBSYSTEM=pci\n"
      " DEVICE=+pci:0000:1b:00.0\n"
      "6,1235,5678999,-;pci 0000:1c:00.0: 63.012 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x4 link)\n"
      "6,1236,5679999,-;pci 0000:02:00.0: 2.000 Gb/s available PCIe bandwidth, limited by Unknown x1 "
      "link at <unknown> (capable of 4.000 Gb/s with 5.0 GT/s PCIe x1 link)\n"
      "4,99,1,-;nvidia-nvlink: Nvlink Core is being initialized\n";
  auto all = parse_kmsg_limits(text);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].bdf, "0000:1b:00.0");
  EXPECT_EQ(all[0].speed_gts, 16.0);
  EXPECT_EQ(all[0].capable_speed_gts, 32.0);
  EXPECT_EQ(all[1].bdf, "0000:02:00.0");
  EXPECT_EQ(all[1].limited_at, "<unknown>");
  EXPECT_EQ(all[1].speed_gts, std::nullopt);
  EXPECT_EQ(all[1].width, 1);
}

TEST(Kmsg, ReadsADeviceOrFileWithoutBlocking) {
  ibburn::testing::TempDir dir;
  std::string path = dir.path() + "/kmsg";
  std::ofstream(path) << "6,1,1,-;pci 0000:1b:00.0: 126.024 Gb/s available PCIe bandwidth, limited by "
                         "32.0 GT/s PCIe x4 link at 0000:1a:01.0 (capable of 504.112 Gb/s with 32.0 GT/s "
                         "PCIe x16 link)\n";
  EXPECT_EQ(parse_kmsg_limits(read_kmsg_device(path)).size(), 1u);
  EXPECT_THROW(read_kmsg_device(dir.path() + "/absent"), ibburn::EnvironmentError);
}
