#pragma once
// Test helper: the ports ibqueryerrors flags in its text output, to compare verdicts.
#include <map>
#include <set>
#include <string>
#include <utility>

namespace ibburn::counters::testing {

struct IbqueryerrorsOutput {
  // (node name, port) -> counter name -> value, for per-port lines ("port ALL" skipped).
  std::map<std::pair<std::string, int>, std::map<std::string, uint64_t>> ports;
  int summary_bad_ports = -1;  // from "## ... N ports have errors beyond threshold"
  std::set<std::pair<std::string, int>> flagged() const;
};

IbqueryerrorsOutput parse_ibqueryerrors(const std::string& text);

}  // namespace ibburn::counters::testing
