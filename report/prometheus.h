#pragma once
// Prometheus text exposition format for node_exporter's textfile collector: one file per
// run with burn rates and verdicts, topo and counters findings by kind, per-port counters.
#include <string>

#include "report/run_data.h"

namespace ibburn::report {

// A label value escaped as the format requires: backslash, double quote and newline.
std::string escape_label_value(const std::string& v);

// Every metric is a gauge named ibburn_*, with # HELP and # TYPE lines, in a stable order.
std::string prometheus_text(const RunData& run);

}  // namespace ibburn::report
