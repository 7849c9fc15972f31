#include "host/pcie_config.h"

#include <gtest/gtest.h>

#include "host/pcie_link.h"
#include "tests/host/sysfs_fixture.h"

using namespace ibburn::host;
using ibburn::host::fixture::FunctionSpec;

namespace {
FunctionSpec bridge(int port_type, std::optional<uint16_t> acs) {
  FunctionSpec f;
  f.vendor = 0x1000;
  f.device = 0xc030;
  f.class_code = 0x060400;
  f.port_type = port_type;
  f.acs_control = acs;
  return f;
}
}  // namespace

TEST(PcieConfig, FindsAcsControlThroughTheExtendedCapabilityList) {
  std::string cfg = fixture::config_space(bridge(6, 0x001d));
  AcsInfo acs = read_acs(cfg);
  ASSERT_EQ(acs.state, AcsInfo::State::Present);
  EXPECT_EQ(acs.control, 0x001d);
  EXPECT_TRUE(acs.control & kAcsP2pRedirect);
  EXPECT_EQ(pcie_port_type(cfg), PortType::DownstreamPort);
}

TEST(PcieConfig, AcsAbsentWhenTheListEndsWithoutIt) {
  AcsInfo acs = read_acs(fixture::config_space(bridge(5, std::nullopt)));
  EXPECT_EQ(acs.state, AcsInfo::State::Absent);
}

TEST(PcieConfig, UnprivilegedSixtyFourBytesAreUnreadableNotAbsent) {
  FunctionSpec f = bridge(6, 0x0000);
  f.config_size = 64;
  std::string cfg = fixture::config_space(f);
  EXPECT_EQ(read_acs(cfg).state, AcsInfo::State::Unreadable);
  EXPECT_EQ(pcie_port_type(cfg), std::nullopt);
  EXPECT_EQ(read_acs("").state, AcsInfo::State::Unreadable);
}

TEST(PcieConfig, ConventionalPciSpaceHasNoExtendedCapabilities) {
  FunctionSpec f = bridge(6, 0x0000);
  f.config_size = 256;
  EXPECT_EQ(read_acs(fixture::config_space(f)).state, AcsInfo::State::Absent);
}

TEST(PcieConfig, CapabilityLoopsTerminate) {
  std::string cfg(4096, '\0');
  // Extended header at 0x100 pointing to itself; standard capability pointing to itself.
  cfg[0x100] = 0x01;
  cfg[0x102] = 0x01;
  cfg[0x103] = 0x10;  // next = 0x100
  cfg[0x06] = 0x10;
  cfg[0x34] = 0x40;
  cfg[0x40] = 0x01;
  cfg[0x41] = 0x40;
  EXPECT_EQ(read_acs(cfg).state, AcsInfo::State::Absent);
  EXPECT_EQ(pcie_port_type(cfg), std::nullopt);
}

TEST(PcieLink, ParsesSysfsSpellings) {
  EXPECT_EQ(parse_pcie_speed("32.0 GT/s PCIe"), 32.0);
  EXPECT_EQ(parse_pcie_speed("2.5 GT/s"), 2.5);
  EXPECT_EQ(parse_pcie_speed("8 GT/s"), 8.0);
  EXPECT_EQ(parse_pcie_speed("Unknown"), std::nullopt);
  EXPECT_EQ(parse_pcie_speed("Unknown speed"), std::nullopt);
  EXPECT_EQ(parse_pcie_width("16"), 16);
  EXPECT_EQ(parse_pcie_width("0"), std::nullopt);
  EXPECT_EQ(parse_pcie_width("x16"), std::nullopt);
  EXPECT_EQ(describe_link(16.0, 8), "16.0 GT/s x8 (Gen4)");
  EXPECT_EQ(describe_link(std::nullopt, 4), "? GT/s x4");
}
