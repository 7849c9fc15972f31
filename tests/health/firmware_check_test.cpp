// Firmware groups: the real capture's half-finished update exactly, then variants made from the
// capture in memory (HCAs one version behind, pins), then plain records.
#include "health/firmware_check.h"

#include <gtest/gtest.h>

#include "capture.h"
#include "common/error.h"
#include "health/diag_nodes.h"

using namespace ibburn;
using namespace ibburn::health;
using ibburn::topo::parse_db_csv;

namespace {

FirmwareRecord record(const std::string& name, const std::string& psid, const std::string& version,
                      const std::string& device = "0xd2f2") {
  return {name, device, "MQM9700", psid, version};
}

TEST(FirmwareCheck, OneVersionPerGroupIsNoFindingAndPsidsAreNotCompared) {
  // One device, two boards (PSIDs) on different versions: not a mismatch.
  EXPECT_TRUE(check_firmware({record("a", "MT_1", "31.1"), record("b", "MT_2", "31.2")}).empty());
  // Unknown PSID: not judged.
  EXPECT_TRUE(check_firmware({record("a", "", "31.1"), record("b", "", "31.2")}).empty());
}

TEST(FirmwareCheck, AGroupOnTwoVersionsIsOneFindingNamingTheNodesBehind) {
  std::vector<Finding> f =
      check_firmware({record("s1", "MT_1", "1.10.0"), record("s2", "MT_1", "1.9.0"), record("s3", "MT_1", "1.10.0")});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::FirmwareMixed);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  // 1.9 is older than 1.10: numbers, not text.
  EXPECT_EQ(f[0].message,
            "1 of 3 MQM9700 (device 0xd2f2), PSID MT_1, on 1.9.0; 2 on 1.10.0: an update that did not finish");
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{"s2", 0}}));
  EXPECT_EQ(f[0].details["versions"][1]["nodes"], (nlohmann::json{"s1", "s3"}));
}

TEST(FirmwareCheck, PinsMakeEveryNodeOffThePinAnError) {
  FirmwarePins pins = parse_firmware_pins("# site pins\nMT_1 = 1.10.0\n\nMT_2=2.0\n", "pins");
  EXPECT_EQ(pins.size(), 2u);
  std::vector<Finding> f =
      check_firmware({record("s1", "MT_1", "1.10.0"), record("s2", "MT_1", "1.11.0"),
                      record("h1", "MT_2", "1.0", "0x1021"), record("h2", "MT_2", "1.0", "0x1021")},
                     pins);
  ASSERT_EQ(f.size(), 2u);  // in (device, PSID) order
  EXPECT_EQ(f[0].kind, FindingKind::FirmwareUnpinned);
  EXPECT_EQ(f[0].severity, Severity::Error);
  EXPECT_EQ(f[0].ports.size(), 2u);
  EXPECT_EQ(f[0].details["pinned"], "2.0");
  EXPECT_EQ(f[1].kind, FindingKind::FirmwareMixed);
  EXPECT_EQ(f[1].severity, Severity::Error);
  EXPECT_EQ(f[1].ports, (std::vector<PortRef>{{"s2", 0}}));  // newer than the pin is off it too
  EXPECT_EQ(f[1].message,
            "1 of 2 MQM9700 (device 0xd2f2), PSID MT_1, on 1.10.0; 1 on 1.11.0: 1 not on the pinned 1.10.0");
}

TEST(FirmwareCheck, PinFileErrorsNameTheLine) {
  EXPECT_THROW(parse_firmware_pins("MT_1\n", "pins"), InputError);
  EXPECT_THROW(parse_firmware_pins("=1.0\n", "pins"), InputError);
  try {
    parse_firmware_pins("MT_1=1\nMT_1=2\n", "pins");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "pins:2: PSID MT_1 pinned twice");
  }
}

TEST(FirmwareCheck, VersionsAndModels) {
  EXPECT_LT(compare_versions("31.2012.1024", "31.2012.1068"), 0);
  EXPECT_GT(compare_versions("28.41.1000", "28.40.1000"), 0);
  EXPECT_EQ(compare_versions("1.2", "1.2"), 0);
  EXPECT_LT(compare_versions("1.2", "1.2.1"), 0);
  EXPECT_EQ(model_of("MF0;ib-switch-sequoia:MQM9700/U1"), "MQM9700");
  EXPECT_EQ(model_of("Quantum-2 Mellanox Technologies"), "Quantum-2");
  EXPECT_EQ(model_of("host1 mlx5_0"), "");
}

using FirmwareCapture = ibburn::testing::CorpusTest;

std::vector<FirmwareRecord> capture_records(const std::vector<DiagNode>& nodes) {
  std::vector<FirmwareRecord> out;
  for (const DiagNode& n : nodes) {
    char guid[32];
    std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(n.guid));
    out.push_back({guid, n.device_id, model_of(n.description), n.psid, n.firmware});
  }
  return out;
}

std::vector<DiagNode> capture_nodes() {
  return diag_nodes(parse_db_csv(health::testing::read_capture("ibdiagnet2.db_csv"), "ibdiagnet2.db_csv"));
}

TEST_F(FirmwareCapture, TheRealHalfFinishedUpdateIsExactlyOneFinding) {
  std::vector<Finding> f = check_firmware(capture_records(capture_nodes()));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            "7 of 8 Quantum-2 (device 0xd2f2), PSID MT_0000000579, on 31.2012.1024; 1 on 31.2012.1068: an update that "
            "did not finish");
  // The seven ibdiagnet's own WARNINGS_FW_CHECK names.
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{"0xfc6a1c03008a4dc0", 0},
                                              {"0xfc6a1c03008a5c00", 0},
                                              {"0xfc6a1c030091cf00", 0},
                                              {"0xfc6a1c030091cf40", 0},
                                              {"0xfc6a1c030091f600", 0},
                                              {"0xfc6a1c030091f9c0", 0},
                                              {"0xfc6a1c030091fc00", 0}}));
  EXPECT_EQ(f[0].details["versions"][1]["nodes"], (nlohmann::json{"0xb0cf0e0300e5b940"}));
}

TEST_F(FirmwareCapture, TenHcasOneVersionBehindAreTheirGroupsFinding) {
  std::vector<DiagNode> nodes = capture_nodes();
  size_t moved = 0;
  for (DiagNode& n : nodes)
    if (n.psid == "MT_0000001120" && moved < 10) {
      n.firmware = "28.39.1002";
      ++moved;
    }
  std::vector<Finding> f = check_firmware(capture_records(nodes));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].details["psid"], "MT_0000001120");
  EXPECT_EQ(f[0].ports.size(), 10u);
  EXPECT_EQ(f[0].message,
            "10 of 255 device 0x1021, PSID MT_0000001120, on 28.39.1002; 245 on 28.40.1000: an update that "
            "did not finish");
}

TEST_F(FirmwareCapture, PinningTheNewerVersionMakesTheUpdateAnError) {
  std::vector<Finding> f = check_firmware(capture_records(capture_nodes()), {{"MT_0000000579", "31.2012.1068"}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::Error);
  EXPECT_EQ(f[0].ports.size(), 7u);
}

}  // namespace
