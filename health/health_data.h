#pragma once
// What a run's page and metrics show of a capture's health, beyond its findings
// (`<run>/health-before.json`, `health-after.json`; docs/health.md, "In ibburn run"):
//   "firmware": one entry per board (device, PSID) with each version, its count and nodes,
//               oldest first;
//   "switch_temperatures": {node, celsius}, hottest first;
//   "module_temperatures": {node, port, celsius, vendor, part_number, serial, warning_c,
//               alarm_c}, hottest first (modules without a reading are left out);
//   "limits": the switch levels judged against, {switch_hot_c, switch_alarm_c}.
// Pure.
#include <nlohmann/json.hpp>

#include "health/health_sources.h"

namespace ibburn::health {

nlohmann::json health_data_json(const HealthInputs& inputs, const TemperatureLimits& limits);

}  // namespace ibburn::health
