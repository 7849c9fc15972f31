// Temperatures: plain readings, then the real capture as it is (no finding: switches 46-62 C,
// modules at most 69 C under their 80 C alarm) and variants made from it in memory: a hot room
// (every switch raised), one hot module.
#include "health/temperature_check.h"

#include <gtest/gtest.h>

#include <sstream>

#include "capture.h"
#include "common/error.h"
#include "health/cables_text.h"
#include "health/diag_nodes.h"
#include "health/rack_names.h"

using namespace ibburn;
using namespace ibburn::health;
using ibburn::topo::CsvSection;
using ibburn::topo::DbCsv;
using ibburn::topo::parse_db_csv;

namespace {

CableModule module(double celsius, std::optional<double> alarm, std::optional<double> warning = std::nullopt) {
  CableModule m;
  m.vendor = "FS";
  m.part_number = "OSFP-SR8-800G";
  m.serial = "G1";
  m.temperature_c = celsius;
  m.alarm_high_c = alarm;
  m.warning_high_c = warning;
  return m;
}

TEST(TemperatureCheck, AFewHotSwitchesAreTheirOwnFindings) {
  std::vector<SwitchTemperature> s = {{"a", 50}, {"b", 72}, {"c", 101}, {"d", 55}};
  std::vector<Finding> f = check_temperatures(s, {});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, FindingKind::SwitchHot);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_EQ(f[0].message, "b: ASIC at 72 C (hot at 70 C)");
  EXPECT_EQ(f[1].severity, Severity::Error);
  EXPECT_EQ(f[1].message, "c: ASIC at 101 C (alarm at 100 C)");
}

TEST(TemperatureCheck, MostSwitchesHotIsOneCoolingFinding) {
  std::vector<SwitchTemperature> s;
  for (int i = 0; i < 320; ++i) s.push_back({"sw" + std::to_string(i), i < 280 ? 71.0 + i % 8 : 60.0});
  std::vector<Finding> f = check_temperatures(s, {});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::SwitchesHot);
  EXPECT_EQ(f[0].message, "280 of 320 switches at 71-78 C: cooling (air recirculating between switches), not cables");
  EXPECT_EQ(f[0].details["each"].size(), 280u);
  // Fewer than 8 is never "most", however small the fabric.
  EXPECT_EQ(check_temperatures({{"a", 75}, {"b", 75}, {"c", 50}}, {}).size(), 2u);
}

TEST(TemperatureCheck, ModulesAgainstTheirOwnThresholds) {
  std::vector<ModuleAt> m = {{{"sw1", 5}, module(81, 80)},
                             {{"sw1", 6}, module(76, 80, 75)},
                             {{"sw1", 7}, module(79, 80)},
                             {{"sw1", 8}, module(90, std::nullopt)}};  // no threshold: not judged
  std::vector<Finding> f = check_temperatures({}, m);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, FindingKind::ModuleHot);
  EXPECT_EQ(f[0].severity, Severity::Error);
  EXPECT_EQ(f[0].message, "sw1 port 5: module FS OSFP-SR8-800G SN G1 at 81 C, its own alarm threshold 80 C");
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{"sw1", 5}}));
  EXPECT_EQ(f[1].severity, Severity::Warning);
  EXPECT_EQ(f[1].details["threshold_c"], 75);
}

TEST(TemperatureCheck, LimitsFile) {
  TemperatureLimits l = parse_temperature_limits("# site\nswitch_hot_c=65\nswitch_alarm_c = 95.5\n", "t");
  EXPECT_EQ(l.switch_hot_c, 65);
  EXPECT_EQ(l.switch_alarm_c, 95.5);
  EXPECT_EQ(check_temperatures({{"a", 66}}, {}, l).size(), 1u);
  try {
    parse_temperature_limits("switch_hot_c=65\nfan=3\n", "t");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "t:2: unknown threshold fan (switch_hot_c, switch_alarm_c)");
  }
  EXPECT_THROW(parse_temperature_limits("switch_hot_c=warm\n", "t"), InputError);
}

using TemperatureCapture = ibburn::testing::CorpusTest;

struct Capture {
  DbCsv db = parse_db_csv(health::testing::read_capture("ibdiagnet2.db_csv"), "ibdiagnet2.db_csv");
  CablesFile cables = parse_cables(health::testing::read_capture("ibdiagnet2.cables"), "ibdiagnet2.cables");

  std::vector<SwitchTemperature> switches() const {
    std::vector<SwitchTemperature> out;
    for (const DiagNode& n : diag_nodes(db))
      if (n.is_switch && n.temperature_c) out.push_back({std::to_string(n.guid), *n.temperature_c});
    return out;
  }
  std::vector<ModuleAt> modules() const {
    std::vector<ModuleAt> out;
    for (const CableModule& m : cables.modules) out.push_back({{std::to_string(m.guid), m.port}, m});
    return out;
  }
};

TEST_F(TemperatureCapture, TheRealCaptureIsCool) {
  Capture c;
  EXPECT_EQ(c.switches().size(), 9u);
  EXPECT_TRUE(check_temperatures(c.switches(), c.modules()).empty());
}

TEST_F(TemperatureCapture, AHotRoomIsOneFindingNotOnePerSwitch) {
  Capture c;
  // Every switch 25 C hotter, in the TEMP_SENSING rows themselves.
  CsvSection& temps = c.db.sections.at("TEMP_SENSING");
  const size_t col = static_cast<size_t>(temps.column("CurrentTemperature"));
  for (auto& row : temps.rows) row[col] = std::to_string(std::stoi(row[col]) + 25);
  std::vector<Finding> f = check_temperatures(c.switches(), c.modules());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::SwitchesHot);
  EXPECT_EQ(f[0].details["count"], 9);
  // The capture's switches read 46-62 C (TEMP_SENSING of its 9 NodeType 2 GUIDs).
  EXPECT_EQ(f[0].message, "9 of 9 switches at 71-87 C: cooling (air recirculating between switches), not cables");
}

TEST_F(TemperatureCapture, OneHotModuleIsItsCablesFinding) {
  Capture c;
  CableModule& hot = c.cables.modules.at(0);  // port 1 of 0xb0cf0e0300e5b940, FS OSFP-SR8-800G
  hot.temperature_c = 83;
  std::vector<Finding> f = check_temperatures(c.switches(), c.modules());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::ModuleHot);
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{std::to_string(0xb0cf0e0300e5b940u), 1}}));
  EXPECT_NE(f[0].message.find("module FS OSFP-SR8-800G SN G2430283435 at 83 C, its own alarm threshold 80 C"),
            std::string::npos);
}

// The capture's 9 switches named into two rows of racks by position (as a node-name-map would):
// row1-r1-sw1..3, row1-r2-sw4..6, row2-r1-sw7..9.
std::vector<SwitchTemperature> placed(std::vector<SwitchTemperature> s) {
  for (size_t i = 0; i < s.size(); ++i)
    s[i].name = std::string(i < 6 ? "row1" : "row2") + "-r" +
                std::to_string(i < 3   ? 1
                               : i < 6 ? 2
                                       : 1) +
                "-sw" + std::to_string(i + 1);
  return s;
}

TEST_F(TemperatureCapture, AHotRackIsOneFindingAndASwitchElsewhereItsOwn) {
  Capture c;
  std::vector<SwitchTemperature> s = placed(c.switches());
  ASSERT_EQ(s.size(), 9u);
  double lo = 1000, hi = 0;
  for (size_t i = 3; i < 6; ++i) {  // rack row1 r2
    s[i].celsius += 25;
    lo = std::min(lo, s[i].celsius);
    hi = std::max(hi, s[i].celsius);
  }
  s[0].celsius = 75;  // one hot switch in rack row1 r1, whose others are cool
  std::vector<Finding> f = check_temperatures(s, {});
  ASSERT_EQ(f.size(), 2u);
  sort_worst_first(f);
  const Finding& rack = f[0].kind == FindingKind::RackHot ? f[0] : f[1];
  const Finding& one = f[0].kind == FindingKind::RackHot ? f[1] : f[0];
  EXPECT_EQ(rack.kind, FindingKind::RackHot);
  EXPECT_EQ(rack.details["rack"], "row1 r2");
  EXPECT_EQ(rack.details["count"], 3);
  std::ostringstream range;
  range << lo << "-" << hi;
  EXPECT_EQ(rack.message, "3 of 3 switches of rack row1 r2 at " + range.str() +
                              " C: the rack's cooling (air recirculating between its switches), not cables");
  EXPECT_EQ(rack.ports, (std::vector<PortRef>{{"row1-r2-sw4", 0}, {"row1-r2-sw5", 0}, {"row1-r2-sw6", 0}}));
  EXPECT_EQ(rack.details["each"].size(), 3u);
  EXPECT_EQ(one.kind, FindingKind::SwitchHot);
  EXPECT_EQ(one.ports, (std::vector<PortRef>{{"row1-r1-sw1", 0}}));
}

TEST_F(TemperatureCapture, AHotRowIsOneFindingNotOnePerRack) {
  Capture c;
  std::vector<SwitchTemperature> s = placed(c.switches());
  for (size_t i = 6; i < 9; ++i) s[i].celsius += 25;  // row2: its one rack
  std::vector<Finding> f = check_temperatures(s, {});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::RowHot);
  EXPECT_EQ(f[0].details["row"], "row2");
  EXPECT_EQ(f[0].details["count"], 3);
}

TEST(RackNames, RowAndRackFromTheNamesComponents) {
  EXPECT_EQ(place_of("row2-r12-leaf03").row, "row2");
  EXPECT_EQ(place_of("row2-r12-leaf03").rack, "row2 r12");
  EXPECT_EQ(place_of("RACK7_spine1").rack, "RACK7");
  EXPECT_EQ(place_of("RACK7_spine1").row, "");
  EXPECT_EQ(place_of("ib-switch-sequoia").rack, "");
  EXPECT_EQ(place_of("0xfc6a1c030091cf00").rack, "");
  EXPECT_EQ(place_of("rack-7 r").rack, "");  // "rack" and "r" without a number are not racks
  EXPECT_EQ(place_of("host r3 mlx5_0").rack, "r3");
}

}  // namespace
