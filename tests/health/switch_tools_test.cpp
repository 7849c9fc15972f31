// ibswinfo and mlxlink --json on the real captures (SOURCES.md rows 24-27), and their errors.
#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "health/ibswinfo_text.h"
#include "health/mlxlink_json.h"
#include "tests/support/corpus.h"

using namespace ibburn;
using namespace ibburn::health;

namespace {

using SwitchTools = ibburn::testing::CorpusTest;

SwitchInfo ibswinfo(const std::string& name) {
  std::string path = ibburn::testing::corpus_path("ibswinfo/" + name);
  return parse_ibswinfo(read_file(path), path);
}

TEST_F(SwitchTools, IbswinfoReadsIdentityFirmwareTemperaturePsusAndFans) {
  SwitchInfo s = ibswinfo("mqm8790-hdr-unmanaged-treydock-test2.out");
  EXPECT_EQ(s.description, "Quantum Mellanox Technologies");
  EXPECT_EQ(s.part_number, "MQM8790-HS2F");
  EXPECT_EQ(s.serial, "MT2152T10239");
  EXPECT_EQ(s.psid, "MT_0000000063");
  EXPECT_EQ(s.guid, 0x08c0eb0300d9f672u);
  EXPECT_EQ(s.firmware, "27.2010.3118");
  EXPECT_EQ(s.temperature_c, 53);
  EXPECT_EQ(s.max_temperature_c, 58);
  ASSERT_EQ(s.psus.size(), 2u);
  EXPECT_EQ(s.psus[1].name, "PSU1");
  EXPECT_EQ(s.psus[1].serial, "MT2150T22467");
  EXPECT_EQ(s.psus[1].dc_power, "OK");
  EXPECT_EQ(s.fan_status, "OK");
  EXPECT_EQ(s.fan_rpm.size(), 9u);
  EXPECT_EQ(s.fan_rpm[0], 6125);
  EXPECT_EQ(s.stray_lines, 4u);  // ports, uptime and each PSU's power (W): rows not judged, counted
  EXPECT_EQ(ibswinfo("mqm8790-hdr-unmanaged-treydock-test3.out").firmware, "27.2010.4102");
  EXPECT_EQ(ibswinfo("msb7790-edr-unmanaged-treydock-test1.out").fan_status, "ERROR");
}

TEST(IbswinfoText, RejectsTextThatIsNotIbswinfo) {
  EXPECT_THROW(parse_ibswinfo("====\nname\nnot a row\n", "x.out"), InputError);
  try {
    parse_ibswinfo("====\nname\n====\nPSID | MT_1\nfirmware version | 1.2.3\n", "x.out");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "x.out: no `part number` row: not ibswinfo output");
  }
  EXPECT_THROW(parse_ibswinfo("temperature (C) | hot\n", "x.out"), InputError);
}

TEST_F(SwitchTools, MlxlinkReadsModuleFirmwareAndBerPerLane) {
  std::string path = ibburn::testing::corpus_path("mlxlink/mft-4.34.1-400g-dr4-yuuki.json");
  MlxlinkPort p = parse_mlxlink_json(read_file(path), path);
  EXPECT_EQ(p.module.vendor, "EXAMPLE");
  EXPECT_EQ(p.module.part_number, "OSFP-400G-DR4");
  EXPECT_EQ(p.module.serial, "S00XXX000000");
  EXPECT_EQ(p.module.temperature_c, 61);
  EXPECT_EQ(p.module.alarm_high_c, 80);  // "61 [-10..80]"
  EXPECT_EQ(p.module.port_name, path);
  EXPECT_EQ(p.module_firmware, "40.242.17");
  EXPECT_EQ(p.device_firmware, "28.47.1088");
  EXPECT_DOUBLE_EQ(*p.raw_ber, 5e-10);
  EXPECT_DOUBLE_EQ(*p.effective_ber, 15e-255);
  EXPECT_EQ(p.raw_ber_per_lane, (std::vector<double>{1e-10, 1e-9, 4e-10, 5e-10}));
}

TEST(MlxlinkJson, RejectsOtherJson) {
  EXPECT_THROW(parse_mlxlink_json("{", "x.json"), InputError);
  EXPECT_THROW(parse_mlxlink_json("{\"findings\": []}", "x.json"), InputError);
  MlxlinkPort bare = parse_mlxlink_json("{\"result\": {\"output\": {}}}", "x.json");
  EXPECT_FALSE(bare.module.temperature_c);
  EXPECT_TRUE(bare.raw_ber_per_lane.empty());
}

}  // namespace
