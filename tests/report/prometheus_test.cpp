#include <gtest/gtest.h>

#include "report/prometheus.h"

using namespace ibburn;
using namespace ibburn::report;

TEST(ReportPrometheus, EscapesLabelValues) {
  EXPECT_EQ(escape_label_value(R"(a\b"c)"
                               "\nd"),
            R"(a\\b\"c\nd)");
  EXPECT_EQ(escape_label_value("plain name"), "plain name");
}

TEST(ReportPrometheus, BurnRatesAndVerdicts) {
  RunData run;
  run.burn.emplace();
  run.burn->complete = true;
  run.burn->pass = false;
  run.burn->endpoints = {{0, burn::Verdict::Pass, 1, 0, "gpu001", "mlx5_0:1", 390.5, 391, {}, {}, {}},
                         {1, burn::Verdict::Slow, 1, 1, "gpu\"2", "mlx5_0:1", {}, {}, {}, {}, {}}};
  run.burn->flows = {{1, 0, 0, 1, 12.25, 400, burn::Verdict::Slow, {}}};
  EXPECT_EQ(
      prometheus_text(run),
      "# HELP ibburn_run_verdict The run's verdict (docs/formats.md): 1 for its verdict, 0 for the other two.\n"
      "# TYPE ibburn_run_verdict gauge\n"
      "ibburn_run_verdict{verdict=\"pass\"} 0\n"
      "ibburn_run_verdict{verdict=\"fail\"} 1\n"
      "ibburn_run_verdict{verdict=\"incomplete\"} 0\n"
      "# HELP ibburn_burn_pass 1 when the burn verdict is pass, 0 otherwise.\n"
      "# TYPE ibburn_burn_pass gauge\n"
      "ibburn_burn_pass 0\n"
      "# HELP ibburn_burn_endpoint_verdict Burn verdict per endpoint (1 for its verdict).\n"
      "# TYPE ibburn_burn_endpoint_verdict gauge\n"
      "ibburn_burn_endpoint_verdict{host=\"gpu001\",endpoint=\"mlx5_0:1\",verdict=\"pass\"} 1\n"
      "ibburn_burn_endpoint_verdict{host=\"gpu\\\"2\",endpoint=\"mlx5_0:1\",verdict=\"slow\"} 1\n"
      "# HELP ibburn_burn_endpoint_min_rate_bytes_per_second Slowest rate an endpoint sent (tx) or received (rx) "
      "at, bytes/s.\n"
      "# TYPE ibburn_burn_endpoint_min_rate_bytes_per_second gauge\n"
      "ibburn_burn_endpoint_min_rate_bytes_per_second{host=\"gpu001\",endpoint=\"mlx5_0:1\",direction=\"tx\"} "
      "48812500000\n"
      "ibburn_burn_endpoint_min_rate_bytes_per_second{host=\"gpu001\",endpoint=\"mlx5_0:1\",direction=\"rx\"} "
      "48875000000\n"
      "# HELP ibburn_burn_flow_rate_bytes_per_second Rate of one direction of a flow, bytes/s (receiver's count).\n"
      "# TYPE ibburn_burn_flow_rate_bytes_per_second gauge\n"
      "ibburn_burn_flow_rate_bytes_per_second{stage=\"1\",flow=\"0\",from=\"gpu001:mlx5_0:1\",to=\"gpu\\\"2:mlx5_0:"
      "1\",verdict=\"slow\"} 1531250000\n");
}

TEST(ReportPrometheus, FindingsByKindAndPortCounters) {
  RunData run;
  run.topo = std::vector<Finding>{{FindingKind::Missing, Severity::Error, "m1", {}, {}},
                                  {FindingKind::Missing, Severity::Error, "m2", {}, {}},
                                  {FindingKind::Split, Severity::Critical, "s", {}, {}}};
  run.counters = nlohmann::json::parse(
      R"({"ports":[{"node":"leaf\\1","type":"Switch","port":3,"peer":{"node":"gpu001 mlx5_0","port":1},
                    "counters":{"SymbolErrorCounter":12,"PortXmitWait":0,"PortXmitData":1000}},
                   {"node":"gpu001 mlx5_0","type":"CA","port":1,"counters":{"SymbolErrorCounter":1}}],
    "findings":[{"kind":"errors","severity":"error","message":"x","ports":[{"node":"leaf\\1","port":3}]}]})");
  run.hosts = {{"gpu001", {{FindingKind::AcsP2pRedirect, Severity::Error, "acs", {}, {}}}}, {"gpu002", {}}};
  const std::string text = prometheus_text(run);
  // The checks' findings, then one counter family per counter in the MAD's order, each port
  // named as node_exporter does (a CA's device) with its cable's other end when known.
  EXPECT_EQ(text.substr(0, text.find("# HELP ibburn_run_findings")),
            "# HELP ibburn_topo_findings Topology check findings by kind and severity.\n"
            "# TYPE ibburn_topo_findings gauge\n"
            "ibburn_topo_findings{kind=\"missing\",severity=\"error\"} 2\n"
            "ibburn_topo_findings{kind=\"split\",severity=\"critical\"} 1\n"
            "# HELP ibburn_counters_findings Counter findings by kind and severity.\n"
            "# TYPE ibburn_counters_findings gauge\n"
            "ibburn_counters_findings{kind=\"errors\",severity=\"error\"} 1\n"
            "# HELP ibburn_infiniband_symbol_error_total SymbolErrorCounter: minor link errors on any physical lane.\n"
            "# TYPE ibburn_infiniband_symbol_error_total counter\n"
            "ibburn_infiniband_symbol_error_total{node=\"leaf\\\\1\",port=\"3\",remote_node=\"gpu001 mlx5_0\","
            "remote_port=\"1\"} 12\n"
            "ibburn_infiniband_symbol_error_total{node=\"gpu001 mlx5_0\",device=\"mlx5_0\",port=\"1\"} 1\n"
            "# HELP ibburn_infiniband_port_transmit_wait_total PortXmitWait: ticks the port had data to send and sent "
            "none.\n"
            "# TYPE ibburn_infiniband_port_transmit_wait_total counter\n"
            "ibburn_infiniband_port_transmit_wait_total{node=\"leaf\\\\1\",port=\"3\",remote_node=\"gpu001 mlx5_0\","
            "remote_port=\"1\"} 0\n"
            "# HELP ibburn_infiniband_port_data_transmitted_bytes_total PortXmitData x 4: data octets transmitted.\n"
            "# TYPE ibburn_infiniband_port_data_transmitted_bytes_total counter\n"
            "ibburn_infiniband_port_data_transmitted_bytes_total{node=\"leaf\\\\1\",port=\"3\",remote_node=\"gpu001 "
            "mlx5_0\",remote_port=\"1\"} 4000\n"
            "# HELP ibburn_host_findings Host check findings per host and kind.\n"
            "# TYPE ibburn_host_findings gauge\n"
            "ibburn_host_findings{host=\"gpu001\",kind=\"acs_p2p_redirect\"} 1\n");
  // The verdict's findings: these files' (no summary), by kind.
  EXPECT_NE(text.find("ibburn_run_findings{kind=\"missing\",severity=\"error\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ibburn_run_findings{kind=\"acs_p2p_redirect\",severity=\"error\"} 1\n"), std::string::npos)
      << text;
}

TEST(ReportPrometheus, EmptyRunIsEmpty) { EXPECT_EQ(prometheus_text(RunData{}), ""); }

// A run that did not finish never exports a pass, whatever it measured so far.
TEST(ReportPrometheus, IncompleteRunIsNeverAPass) {
  RunData run;
  run.burn.emplace();  // neither complete nor interrupted: running
  run.burn->pass = true;
  const std::string text = prometheus_text(run);
  EXPECT_EQ(text.find("# HELP ibburn_run_incomplete"), 0u) << text;
  EXPECT_NE(text.find("\nibburn_run_incomplete 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nibburn_burn_pass 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nibburn_run_verdict{verdict=\"incomplete\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nibburn_run_verdict{verdict=\"pass\"} 0\n"), std::string::npos) << text;
  RunData files_only;
  files_only.began = true;  // results.jsonl, no summary
  EXPECT_NE(prometheus_text(files_only).find("\nibburn_run_incomplete 1\n"), std::string::npos);
}
