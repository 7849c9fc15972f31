// What a run's page shows of a capture: the real capture's firmware groups and temperatures,
// then a variant made from it in memory with one hot module.
#include "health/health_data.h"

#include <gtest/gtest.h>

#include "capture.h"

using namespace ibburn;
using namespace ibburn::health;

namespace {

using HealthDataCapture = ibburn::testing::CorpusTest;

HealthSources capture_sources() {
  HealthSources s;
  add_source(s, SourceKind::DbCsv, "ibdiagnet2.db_csv", ibburn::health::testing::read_capture("ibdiagnet2.db_csv"));
  add_source(s, SourceKind::Cables, "ibdiagnet2.cables", ibburn::health::testing::read_capture("ibdiagnet2.cables"));
  return s;
}

TEST_F(HealthDataCapture, FirmwareGroupsOldestFirstTemperaturesHottestFirst) {
  const HealthSources s = capture_sources();
  const nlohmann::json j = health_data_json(health_inputs(s, nullptr), {});
  const nlohmann::json* quantum = nullptr;
  for (const auto& g : j["firmware"])
    if (g["psid"] == "MT_0000000579") quantum = &g;
  ASSERT_NE(quantum, nullptr);
  EXPECT_EQ((*quantum)["device"], "0xd2f2");
  ASSERT_EQ((*quantum)["versions"].size(), 2u);
  EXPECT_EQ((*quantum)["versions"][0]["version"], "31.2012.1024");
  EXPECT_EQ((*quantum)["versions"][0]["count"], 7);
  EXPECT_EQ((*quantum)["versions"][1]["version"], "31.2012.1068");
  EXPECT_EQ((*quantum)["versions"][1]["nodes"].size(), 1u);
  // TEMP_SENSING's 9 switches, 46-62 C.
  const nlohmann::json& sw = j["switch_temperatures"];
  ASSERT_EQ(sw.size(), 9u);
  EXPECT_EQ(sw.front()["celsius"], 62.0);
  EXPECT_EQ(sw.back()["celsius"], 46.0);
  for (size_t i = 1; i < sw.size(); ++i) EXPECT_GE(sw[i - 1]["celsius"], sw[i]["celsius"]);
  EXPECT_EQ(j["limits"]["switch_hot_c"], 70.0);
  const nlohmann::json& mods = j["module_temperatures"];
  ASSERT_FALSE(mods.empty());
  for (size_t i = 1; i < mods.size(); ++i) EXPECT_GE(mods[i - 1]["celsius"], mods[i]["celsius"]);
}

TEST_F(HealthDataCapture, AHotModuleLeadsTheModules) {
  HealthSources s = capture_sources();
  s.cable_modules[5].temperature_c = 91;
  const nlohmann::json j = health_data_json(health_inputs(s, nullptr), {});
  const nlohmann::json& top = j["module_temperatures"].front();
  EXPECT_EQ(top["celsius"], 91.0);
  EXPECT_EQ(top["port"], s.cable_modules[5].port);
  EXPECT_EQ(top["serial"], s.cable_modules[5].serial);
}

}  // namespace
