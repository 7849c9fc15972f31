#include "run/health_evidence.h"

#include <memory>
#include <set>

#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/file_io.h"
#include "health/health_data.h"
#include "health/health_command.h"
#include "topo/node_name_map.h"

namespace ibburn::run {

JudgedCapture judge_health_capture(const std::string& input, const std::string& when, const std::string& node_name_map,
                                   const std::string& run_dir) {
  const health::HealthSources sources = health::load_health_sources({input});
  std::unique_ptr<topo::NodeNameMap> names;
  if (!node_name_map.empty()) names = std::make_unique<topo::NodeNameMap>(topo::NodeNameMap::load(node_name_map));
  health::HealthJudgement judgement;
  judgement.names = names.get();
  const health::HealthInputs inputs = health::health_inputs(sources, judgement.names);
  JudgedCapture out;
  out.findings = health::check_health(inputs, judgement);
  for (Finding& f : out.findings) f.details["capture"] = when;
  for (const health::CableModule& m : sources.cable_modules)
    if (std::string part = health::part_text(m); !part.empty()) out.parts[{m.guid, m.port}] = std::move(part);
  nlohmann::json j = findings_to_json(out.findings);
  j["capture"] = {{"when", when}, {"input", input}, {"files", sources.files}, {"stray_lines", sources.stray_lines}};
  j.update(health::health_data_json(inputs, judgement.limits));
  write_file_atomic(run_dir + "/health-" + when + ".json", j.dump() + "\n");
  return out;
}

std::vector<Finding> new_after_burn(const std::vector<Finding>& before, std::vector<Finding> after) {
  std::set<std::pair<FindingKind, std::string>> told;
  for (const Finding& f : before) told.emplace(f.kind, f.message);
  std::vector<Finding> out;
  for (Finding& f : after) {
    if (told.count({f.kind, f.message})) continue;
    f.message += " (after the burn)";
    out.push_back(std::move(f));
  }
  return out;
}

bool from_health_capture(const Finding& f) { return f.details.contains("capture"); }

void name_module_parts(std::vector<CableAction>& cables, const topo::Fabric& fabric, const ModuleParts& parts) {
  const auto part_at = [&](const PortRef& end) -> std::string {
    auto node = fabric.find_name(end.node);
    if (!node) return "";
    auto it = parts.find({fabric.node(*node).guid, end.port});
    return it == parts.end() ? "" : it->second;
  };
  for (CableAction& c : cables) {
    c.a_part = part_at(c.a);
    c.b_part = part_at(c.b);
  }
}

void add_findings(burn::BurnSummary& doc, const std::vector<Finding>& findings) {
  std::vector<Finding>& all = doc.findings ? *doc.findings : doc.findings.emplace();
  all.insert(all.end(), findings.begin(), findings.end());
  sort_worst_first(all);
  doc.pass = doc.pass && exit_code_for(findings) == kExitOk;
}

std::string HealthCaptures::judge(const std::string& input, const std::string& when) {
  JudgedCapture judged = judge_health_capture(input, when, names_, dir_);
  for (auto& [port, part] : judged.parts) parts_[port] = std::move(part);
  std::vector<Finding> found = std::move(judged.findings);
  if (when == "after") {
    after_ = new_after_burn(findings_, std::move(found));
    found = after_;
  }
  findings_.insert(findings_.end(), found.begin(), found.end());
  return fmt::format("{} finding(s) from {}", found.size(), input);
}

}  // namespace ibburn::run
