// The Grafana dashboard (deploy/grafana/ibburn-dashboard.json) against what prometheus_text
// writes for a run with every part, and the families' names and types against Prometheus'
// conventions.
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "common/finding_details.h"
#include "counters/port_counters.h"
#include "report/prometheus.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {

// A failed `ibburn run` of two hosts: a burn with endpoints and flows and the job's findings
// (one a partial allocation's untested cable), a counters sweep with every counter ibburn
// reads on a switch port and its HCA, the checks' findings, drain and cable lists, and an
// ibdiagnet capture.
RunData every_part() {
  RunData run;
  run.burn.emplace();
  run.burn->complete = true;
  run.burn->pass = false;
  run.burn->endpoints = {{0, burn::Verdict::Pass, 1, 0, "gpu001", "mlx5_0:1", 390.5, 391, {}, {}, {}},
                         {1, burn::Verdict::Slow, 1, 1, "gpu002", "mlx5_0:1", 120, 121, {}, {}, {}}};
  run.burn->flows = {{1, 0, 0, 1, 120, 400, burn::Verdict::Slow, "slow"},
                     {1, 0, 1, 0, 390, 400, burn::Verdict::Pass, {}}};
  Finding untested{FindingKind::Untested, Severity::Info, "1 cable untested", {}, {}};
  untested.details = UntestedDetails{{"leaf1[9] - spine1[1]"}, {}, 2, 1, "slurm"};
  run.burn->findings = std::vector<Finding>{
      {FindingKind::ErrorsUnderLoad, Severity::Error, "errors", {{"leaf1", 1}, {"gpu002 mlx5_0", 1}}, {}}, untested};
  run.topo = std::vector<Finding>{{FindingKind::Missing, Severity::Error, "m", {{"leaf1", 2}, {"spine1", 2}}, {}}};
  nlohmann::json counters = nlohmann::json::object();
  for (size_t i = 0; i < counters::kCounterCount; ++i) counters[counters::counter_name(counters::counter_at(i))] = i;
  run.counters = nlohmann::json{{"ports",
                                 {{{"node", "leaf1"},
                                   {"type", "Switch"},
                                   {"port", 1},
                                   {"peer", {{"node", "gpu002 mlx5_0"}, {"port", 1}}},
                                   {"counters", counters}},
                                  {{"node", "gpu002 mlx5_0"},
                                   {"type", "CA"},
                                   {"port", 1},
                                   {"peer", {{"node", "leaf1"}, {"port", 1}}},
                                   {"counters", counters}}}},
                                {"findings", nlohmann::json::array()}};
  run.hosts = {{"gpu002", {{FindingKind::AcsP2pRedirect, Severity::Error, "acs", {}, {}}}}};
  run.drain = DrainList{{{"gpu002", "errors_under_load: leaf1[1] - gpu002 mlx5_0[1]"}}, {}};
  run.cables = std::vector<CableRow>{{"leaf1", "1", "gpu002 mlx5_0", "1", "", "reseat", "errors", "", ""}};
  run.health = {nlohmann::json::parse(R"({"capture": {"when": "after"},
    "firmware": [{"device": "0xd2f2", "psid": "MT_2", "versions": [{"version": "31.2012.1024", "nodes": ["leaf1"]}]}],
    "switch_temperatures": [{"node": "leaf1", "celsius": 61}],
    "module_temperatures": [{"node": "leaf1", "port": 1, "celsius": 55, "vendor": "FS", "part_number": "P",
                             "serial": "S"}]})")};
  return run;
}

// name -> type, from the # TYPE lines.
std::map<std::string, std::string> families(const std::string& text) {
  std::map<std::string, std::string> out;
  static const std::regex type_line(R"(^# TYPE (\S+) (\S+)$)");
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::smatch m; std::regex_match(line, m, type_line)) out[m[1]] = m[2];
  return out;
}

// The metric names a PromQL expression reads: its identifiers once label matchers, strings,
// ranges and grouping label lists are taken out, less functions, aggregations and keywords.
std::set<std::string> metric_names(std::string expr) {
  expr = std::regex_replace(expr, std::regex(R"("(\\.|[^"\\])*")"), "\"\"");
  expr = std::regex_replace(expr, std::regex(R"(\{[^}]*\})"), " ");
  expr = std::regex_replace(expr, std::regex(R"(\[[^\]]*\])"), " ");
  expr = std::regex_replace(expr, std::regex(R"(\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\))"), " ");
  static const std::set<std::string> keywords = {"and", "or", "unless", "bool", "offset"};
  std::set<std::string> out;
  static const std::regex ident(R"(([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?)");
  for (auto it = std::sregex_iterator(expr.begin(), expr.end(), ident); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    const bool before_digit = m.position(0) > 0 && std::isalnum(static_cast<unsigned char>(expr[m.position(0) - 1]));
    if (m[2].matched || before_digit || keywords.contains(m[1])) continue;  // a call, 1e9's e9, a keyword
    out.insert(m[1]);
  }
  return out;
}

void exprs_of(const nlohmann::json& panels, std::vector<std::pair<std::string, std::string>>& out) {
  for (const auto& p : panels) {
    for (const auto& t : p.value("targets", nlohmann::json::array())) out.emplace_back(p.value("title", ""), t["expr"]);
    exprs_of(p.value("panels", nlohmann::json::array()), out);  // a collapsed row holds its panels
  }
}

}  // namespace

TEST(ReportDashboard, MetricNamesOfAQuery) {
  EXPECT_EQ(metric_names(R"(topk(20, increase(ibburn_a_total{node=~"x.*", port!="1"}[1d]) > 0))"),
            (std::set<std::string>{"ibburn_a_total"}));
  EXPECT_EQ(metric_names("sum by (kind, severity) (ibburn_b) / on(instance) group_left(x) ibburn_c or vector(0)"),
            (std::set<std::string>{"ibburn_b", "ibburn_c"}));
  EXPECT_EQ(metric_names("ibburn_d > 1e9 and ibburn_e offset 1d"), (std::set<std::string>{"ibburn_d", "ibburn_e"}));
}

TEST(ReportDashboard, EveryQueryReadsAFamilyIbburnWrites) {
  std::ifstream in(IBBURN_DASHBOARD_JSON);
  ASSERT_TRUE(in) << IBBURN_DASHBOARD_JSON;
  const nlohmann::json dashboard = nlohmann::json::parse(in);
  std::vector<std::pair<std::string, std::string>> exprs;
  exprs_of(dashboard.at("panels"), exprs);
  ASSERT_GE(exprs.size(), 10u);

  const auto written = families(prometheus_text(every_part()));
  std::set<std::string> read;
  for (const auto& [panel, expr] : exprs) {
    const auto names = metric_names(expr);
    EXPECT_FALSE(names.empty()) << panel << ": " << expr;
    for (const auto& name : names) {
      read.insert(name);
      EXPECT_TRUE(written.contains(name))
          << panel << ": " << expr << " reads " << name << ", which ibburn does not write";
    }
  }
  // The issue's panels: verdict, findings, per-cable rate and errors, drained hosts, coverage.
  for (const char* name :
       {"ibburn_run_verdict", "ibburn_run_findings", "ibburn_burn_endpoint_min_rate_bytes_per_second",
        "ibburn_infiniband_symbol_error_total", "ibburn_drain_hosts", "ibburn_coverage_cables"})
    EXPECT_TRUE(read.contains(name)) << "no panel reads " << name;
}

TEST(ReportDashboard, FamiliesFollowPrometheusConventions) {
  const std::string text = prometheus_text(every_part());
  const auto written = families(text);
  // Every part of the run is written (the port counters: one family per counter ibburn reads).
  size_t port_counters = 0;
  for (const auto& [name, type] : written) {
    EXPECT_TRUE(std::regex_match(name, std::regex("ibburn_[a-z0-9_]+"))) << name;
    if (name.ends_with("_total")) {
      EXPECT_EQ(type, "counter") << name;
    } else {
      EXPECT_EQ(type, "gauge") << name;
    }
    EXPECT_EQ(name.find("gbps"), std::string::npos) << name << ": rates are in bytes/s";
    port_counters += name.starts_with("ibburn_infiniband_");
  }
  EXPECT_EQ(port_counters, counters::kCounterCount) << text;
  for (const char* name : {"ibburn_burn_pass", "ibburn_burn_flow_rate_bytes_per_second", "ibburn_topo_findings",
                           "ibburn_counters_findings", "ibburn_host_findings", "ibburn_drain_host_listed",
                           "ibburn_cable_action", "ibburn_coverage_loaded_cables", "ibburn_switch_temperature_celsius",
                           "ibburn_module_temperature_celsius", "ibburn_firmware_info"})
    EXPECT_TRUE(written.contains(name)) << name << " not in:\n" << text;
  // Each sample belongs to the family declared before it.
  std::istringstream in(text);
  std::string family;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("# TYPE ")) family = line.substr(7, line.find(' ', 7) - 7);
    if (line.starts_with("#")) continue;
    EXPECT_EQ(line.substr(0, line.find_first_of("{ ")), family) << line;
  }
  // node_exporter's names for what both measure, with its labels and the cable's other end.
  EXPECT_NE(text.find("ibburn_infiniband_port_data_received_bytes_total{node=\"gpu002 mlx5_0\",device=\"mlx5_0\","
                      "port=\"1\",remote_node=\"leaf1\",remote_port=\"1\"} 60\n"),  // PortRcvData 15 words
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ibburn_infiniband_link_downed_total{node=\"leaf1\",port=\"1\",remote_node=\"gpu002 mlx5_0\","
                      "remote_port=\"1\"} 2\n"),
            std::string::npos)
      << text;
  // The cables the run saw: leaf1[1]'s, which carried its load, the missing one, and the one
  // the job left untested.
  EXPECT_NE(text.find("\nibburn_coverage_cables 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nibburn_coverage_loaded_cables 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nibburn_drain_hosts 1\n"), std::string::npos) << text;
}
