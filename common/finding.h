#pragma once
// A finding is one problem a check found, in the same shape for topo, counters and host
// checks, so the summary printer, JSON output, reports and history treat them alike.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding_catalogue.h"

namespace ibburn {

const char* to_string(Severity s);
Severity severity_from_string(const std::string& s);  // throws std::invalid_argument

struct PortRef {
  std::string node;  // a human name: node-name-map name or node description
  int port = 0;      // 0 = the node as a whole (or a switch's management port)
  bool operator==(const PortRef&) const = default;
};

struct Finding {
  FindingKind kind{};  // declared by common/finding_catalogue.h
  Severity severity = Severity::Error;
  std::string message;
  std::vector<PortRef> ports;
  nlohmann::json details = nlohmann::json::object();  // evidence, kind-specific
};

nlohmann::json to_json(const Finding& f);
// Strict: throws std::invalid_argument naming a missing or mistyped field, or a kind the
// catalogue does not declare (every writer writes kind, severity, message and ports).
Finding finding_from_json(const nlohmann::json& j);
// {"findings": [...]} in worst-first order.
nlohmann::json findings_to_json(std::vector<Finding> findings);

// Sorts worst first (severity, then kind, then first port) so output is stable.
void sort_worst_first(std::vector<Finding>& findings);

// Terse human summary: counts per kind, then the details grouped by kind, worst first.
// Prints at most max_per_kind details per kind (0 = all), then "... and N more".
void print_summary(std::ostream& os, const std::string& title, std::vector<Finding> findings, size_t max_per_kind = 20);

// 0 when there is no finding of Warning or worse, 1 otherwise.
int exit_code_for(const std::vector<Finding>& findings);

}  // namespace ibburn
