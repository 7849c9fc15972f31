#pragma once
// The page's and the metrics' view of a run's ibdiagnet captures: `health-before.json` and
// `health-after.json`, written by `ibburn run --ibdiagnet/--ibdiagnet-after`
// (run/health_evidence; fields in health/health_data.h). The page shows each capture's
// firmware per board (device, PSID), a board on several versions first and marked, and a
// temperature strip per switch, hottest first, coloured against the capture's levels, then
// its hottest modules. The metrics are gauges for every switch's and module's temperature and
// an info metric (value 1) per node's firmware.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/prometheus_writer.h"

namespace ibburn::report {

// Empty when there is no capture.
std::string health_section_html(const std::vector<nlohmann::json>& captures);

// ibburn_switch_temperature_celsius, ibburn_module_temperature_celsius, ibburn_firmware_info,
// each labelled with the capture ("before", "after"); nothing when there is no capture.
void health_metrics(PrometheusWriter& w, const std::vector<nlohmann::json>& captures);

}  // namespace ibburn::report
