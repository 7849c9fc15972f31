#pragma once
// `ibburn health DIR|FILE...`: reads the vendor's own files (ibdiagnet2.db_csv and .cables,
// ibswinfo output, mlxlink --json), judges firmware and temperatures, prints the findings.
#include <iosfwd>
#include <string>
#include <vector>

#include "health/health_sources.h"

namespace ibburn::health {

struct HealthCommandOptions {
  std::vector<std::string> inputs;  // files, or directories searched recursively
  std::string json_out;             // {"sources": {...}, "findings": [...]}
  std::string node_name_map;
  std::string expect;      // PSID=version pins (docs/health.md)
  std::string thresholds;  // switch_hot_c=, switch_alarm_c=
};

// The files under `inputs` (a directory's searched recursively, in name order, so output is
// stable), parsed. Throws InputError as health_command does.
HealthSources load_health_sources(const std::vector<std::string>& inputs);

// The exit code: 0 no finding, 1 findings; throws InputError (exit 2) on bad input, a named
// file of no known kind, or inputs holding no file to judge.
int health_command(const HealthCommandOptions& options, std::ostream& out);

}  // namespace ibburn::health
