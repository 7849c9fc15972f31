#pragma once
// Prometheus text exposition format for node_exporter's textfile collector: one file per
// run with burn rates and verdicts, findings by kind, per-port counters (one family per
// counter, as node_exporter's infiniband collector names them), drain and cable lists,
// coverage. The families are docs/report.md's table; deploy/grafana's dashboard reads them.
#include <string>

#include "report/run_data.h"

namespace ibburn::report {

// A label value escaped as the format requires: backslash, double quote and newline.
std::string escape_label_value(const std::string& v);

// Every family is named ibburn_*, with # HELP and # TYPE lines (counters *_total, the rest
// gauges), in a stable order.
std::string prometheus_text(const RunData& run);

}  // namespace ibburn::report
