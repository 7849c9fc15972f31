#include "common/finding.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string_view>

#include "common/exit_codes.h"
#include "common/json_fields.h"

namespace ibburn {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    case Severity::Critical: return "critical";
  }
  return "error";
}

Severity severity_from_string(const std::string& s) {
  if (s == "info") return Severity::Info;
  if (s == "warning") return Severity::Warning;
  if (s == "error") return Severity::Error;
  if (s == "critical") return Severity::Critical;
  throw std::invalid_argument("unknown severity '" + s + "'");
}

nlohmann::json to_json(const Finding& f) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : f.ports) ports.push_back({{"node", p.node}, {"port", p.port}});
  nlohmann::json j = {{"kind", f.kind}, {"severity", to_string(f.severity)}, {"message", f.message}, {"ports", ports}};
  if (!f.details.empty()) j["details"] = f.details;
  return j;
}

Finding finding_from_json(const nlohmann::json& j) {
  const JsonFields in(j, [](const std::string& field, const std::string& what) {
    throw std::invalid_argument(field.empty() ? what : field + ": " + what);
  });
  Finding f;
  f.kind = in.value("kind")->get<FindingKind>();
  f.severity = severity_from_string(in.get<std::string>("severity"));
  f.message = in.get<std::string>("message");
  for (const auto& p : in.objects("ports")) f.ports.push_back({p.get<std::string>("node"), p.get<int>("port")});
  if (j.contains("details")) f.details = j["details"];
  return f;
}

void sort_worst_first(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.kind != b.kind) return std::string_view(to_string(a.kind)) < to_string(b.kind);
    const PortRef none;
    const PortRef& pa = a.ports.empty() ? none : a.ports.front();
    const PortRef& pb = b.ports.empty() ? none : b.ports.front();
    if (pa.node != pb.node) return pa.node < pb.node;
    return pa.port < pb.port;
  });
}

nlohmann::json findings_to_json(std::vector<Finding> findings) {
  sort_worst_first(findings);
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& f : findings) arr.push_back(to_json(f));
  return {{"findings", arr}};
}

void print_summary(std::ostream& os, const std::string& title, std::vector<Finding> findings, size_t max_per_kind) {
  sort_worst_first(findings);
  if (findings.empty()) {
    os << title << ": OK, no findings\n";
    return;
  }
  // Counts per kind in worst-first order of first appearance.
  std::vector<FindingKind> order;
  std::map<FindingKind, size_t> count;
  for (const auto& f : findings) {
    if (count[f.kind]++ == 0) order.push_back(f.kind);
  }
  os << title << ": " << findings.size() << " finding" << (findings.size() == 1 ? "" : "s") << " (";
  for (size_t i = 0; i < order.size(); ++i) os << (i ? ", " : "") << count[order[i]] << " " << order[i];
  os << ")\n";
  for (const auto& kind : order) {
    os << "\n" << kind << ":\n";
    size_t shown = 0;
    for (const auto& f : findings) {
      if (f.kind != kind) continue;
      if (max_per_kind && shown == max_per_kind) {
        os << "  ... and " << count[kind] - shown << " more (see --json)\n";
        break;
      }
      os << "  [" << to_string(f.severity) << "] " << f.message << "\n";
      ++shown;
    }
  }
}

int exit_code_for(const std::vector<Finding>& findings) {
  for (const auto& f : findings)
    if (f.severity >= Severity::Warning) return kExitFindings;
  return kExitOk;
}

}  // namespace ibburn
