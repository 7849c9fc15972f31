// The page's health section and the health gauges on plain capture data, in the shape
// health/health_data.h writes (the run's end-to-end test checks it on the real capture).
#include "report/health_section.h"

#include <gtest/gtest.h>

using namespace ibburn;
using namespace ibburn::report;

namespace {

nlohmann::json capture() {
  return nlohmann::json::parse(R"({
    "capture": {"when": "before", "input": "cap/"},
    "limits": {"switch_hot_c": 70, "switch_alarm_c": 100},
    "firmware": [
      {"device": "0x1021", "psid": "MT_1", "model": "", "versions": [{"version": "28.1.1", "count": 2, "nodes": ["h1", "h2"]}]},
      {"device": "0xd2f2", "psid": "MT_2", "model": "MQM9700",
       "versions": [{"version": "31.2012.1024", "count": 7, "nodes": ["s1","s2","s3","s4","s5","s6","s7"]},
                    {"version": "31.2012.1068", "count": 1, "nodes": ["s8"]}]}],
    "switch_temperatures": [{"node": "s3", "celsius": 101}, {"node": "s1", "celsius": 74}, {"node": "s2", "celsius": 46}],
    "module_temperatures": [{"node": "s1", "port": 3, "celsius": 83, "vendor": "FS", "part_number": "OSFP-SR8-800G",
                             "serial": "G1", "warning_c": 75, "alarm_c": 80}]})");
}

TEST(HealthSection, FirmwareMixedFirstAndTheStripHottestFirst) {
  const std::string html = health_section_html({capture()});
  // The mixed board's rows come before the uniform one, and are marked.
  const size_t mixed = html.find("MQM9700"), uniform = html.find("0x1021");
  ASSERT_NE(mixed, std::string::npos);
  ASSERT_NE(uniform, std::string::npos);
  EXPECT_LT(mixed, uniform);
  EXPECT_NE(html.find(R"(class="fw-mixed")"), std::string::npos);
  EXPECT_NE(html.find("s1, s2, s3, s4, s5, s6 ... and 1 more"), std::string::npos) << html;
  // Cells in the capture's order (hottest first), coloured against its levels.
  const size_t s3 = html.find(R"(title="s3: 101 C" style="background:#d93025)"),
               s1 = html.find(R"(title="s1: 74 C" style="background:#e37400)"),
               s2 = html.find(R"(title="s2: 46 C" style="background:#2e9e44)");
  ASSERT_NE(s3, std::string::npos) << html;
  ASSERT_NE(s1, std::string::npos) << html;
  ASSERT_NE(s2, std::string::npos) << html;
  EXPECT_LT(s3, s1);
  EXPECT_LT(s1, s2);
  EXPECT_NE(html.find("FS OSFP-SR8-800G SN G1"), std::string::npos);
  EXPECT_NE(html.find(R"(id="health-temps-before")"), std::string::npos);
  EXPECT_EQ(health_section_html({}), "");
}

TEST(HealthSection, GaugesForTemperaturesAndAnInfoMetricForFirmware) {
  PrometheusWriter w;
  health_metrics(w, {capture()});
  const std::string text = w.str();
  EXPECT_NE(text.find("# TYPE ibburn_switch_temperature_celsius gauge\n"), std::string::npos);
  EXPECT_NE(text.find("ibburn_switch_temperature_celsius{capture=\"before\",node=\"s3\"} 101\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("ibburn_module_temperature_celsius{capture=\"before\",node=\"s1\",port=\"3\",vendor=\"FS\","
                      "part_number=\"OSFP-SR8-800G\",serial=\"G1\"} 83\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ibburn_firmware_info{capture=\"before\",node=\"s8\",device=\"0xd2f2\",psid=\"MT_2\","
                      "version=\"31.2012.1068\"} 1\n"),
            std::string::npos)
      << text;
  PrometheusWriter none;
  health_metrics(none, {});
  EXPECT_EQ(none.str(), "");
}

}  // namespace
