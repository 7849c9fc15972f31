#include "common/systemic_causes.h"

#include <algorithm>
#include <cmath>

#include "common/finding_details.h"

namespace ibburn {
namespace {

using nlohmann::json;

std::string port_key(const PortRef& p) { return p.node + "[" + std::to_string(p.port) + "]"; }

// 12280 -> "12,280": counts in messages are read by people.
std::string count_text(size_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The evidence that must be equal for two findings to differ from the plan "the same way":
// a degraded link's rates, the counters that rose under load (not by how much: one cause
// gives different counts on different cables). Other kinds compare kind and severity only.
json shared_evidence(const Finding& f) {
  json e = json::object();
  if (f.kind == FindingKind::Degraded) {
    e = details_of<FindingKind::Degraded>(f);
  } else if (f.kind == FindingKind::ErrorsUnderLoad) {
    json rose = json::array();
    for (const auto& [counter, value] : details_of<FindingKind::ErrorsUnderLoad>(f).rise) rose.push_back(counter);
    e["rose"] = rose;
  } else if (f.kind == FindingKind::Errors && f.details.contains("counters") && f.details["counters"].is_object()) {
    // `ibburn counters`: the counters over their thresholds, not by how much.
    json over = json::array();
    for (const auto& [counter, value] : f.details["counters"].items()) over.push_back(counter);
    e["over"] = over;
  }
  return e;
}

// How the grouped cables differ, after "N of M cables".
std::string difference(FindingKind kind, const json& evidence) {
  if (kind == FindingKind::Degraded && evidence.contains("active"))
    return "run at " + evidence["active"].get<std::string>() +
           (evidence.contains("planned")     ? ", the plan says " + evidence["planned"].get<std::string>()
            : evidence.contains("supported") ? ", both ends support " + evidence["supported"].get<std::string>()
                                             : "");
  if (evidence.contains("rose")) {
    std::string counters;
    for (const auto& c : evidence["rose"]) counters += (counters.empty() ? "" : ", ") + c.get<std::string>();
    return "with " + counters + " rising under load";
  }
  if (evidence.contains("over")) {
    std::string counters;
    for (const auto& c : evidence["over"]) counters += (counters.empty() ? "" : ", ") + c.get<std::string>();
    return "with " + counters + " over the threshold";
  }
  if (kind == FindingKind::PortDown) return "down";
  if (kind == FindingKind::Missing) return "missing";
  return "with " + std::string(to_string(kind)) + " findings";
}

std::string scope_label(const CauseScope& s) {
  switch (s.type) {
    case ScopeType::Fabric: return "the fabric";
    case ScopeType::Plane: return "plane " + s.name;
    case ScopeType::Tier: return "the " + s.name + " tier";
    case ScopeType::Pod: return "pod " + s.name;
    case ScopeType::Rail: return "rail " + s.name;
    case ScopeType::Switch: return "switch " + s.name;
  }
  return s.name;
}

// What to look at instead of the cables.
std::string where_to_look(const CauseScope& s) {
  switch (s.type) {
    case ScopeType::Fabric:
      return "one cause for the whole fabric (the plan, the subnet manager, a fabric-wide setting)";
    case ScopeType::Plane:
      return "one cause for the plane (its subnet manager, its switches' firmware, a setting of that subnet)";
    case ScopeType::Tier: return "one cause for the tier (its switches' model, firmware or cable type)";
    case ScopeType::Pod: return "one cause for the pod (its switches' firmware or configuration)";
    case ScopeType::Rail: return "one cause for the rail (its HCAs' firmware, settings or cable type)";
    case ScopeType::Switch: return "one cause at the switch (its firmware, configuration or a line card)";
  }
  return "one cause";
}

std::string cables_word(const CauseScope& s) {
  if (s.type == ScopeType::Rail) return "HCA cables";
  if (s.type == ScopeType::Tier) return s.name + " cables";
  return "cables";
}

Finding systemic_finding(const CauseScope& scope, std::vector<Finding> members, size_t cables) {
  Finding f;
  f.kind = FindingKind::Systemic;
  f.severity = members.front().severity;
  const json evidence = shared_evidence(members.front());
  const FindingKind kind = members.front().kind;
  const std::string count =
      cables == scope.cables ? "all " + count_text(cables) : count_text(cables) + " of " + count_text(scope.cables);
  f.message = scope_label(scope) + ": " + count + " " + cables_word(scope) + " " + difference(kind, evidence) + ": " +
              where_to_look(scope) + ", not " + count_text(cables) + " cable faults";
  if (scope.type == ScopeType::Switch) f.ports = {{scope.name, 0}};
  sort_worst_first(members);
  f.details = SystemicDetails{kind, scope, cables, evidence, std::move(members)};
  return f;
}

}  // namespace

const char* to_string(ScopeType t) {
  switch (t) {
    case ScopeType::Fabric: return "fabric";
    case ScopeType::Plane: return "plane";
    case ScopeType::Tier: return "tier";
    case ScopeType::Pod: return "pod";
    case ScopeType::Rail: return "rail";
    case ScopeType::Switch: return "switch";
  }
  return "fabric";
}

std::optional<ScopeType> scope_type_from_string(std::string_view name) {
  for (ScopeType t :
       {ScopeType::Fabric, ScopeType::Plane, ScopeType::Tier, ScopeType::Pod, ScopeType::Rail, ScopeType::Switch})
    if (name == to_string(t)) return t;
  return std::nullopt;
}

CableScopes::CableScopes() { scopes_.push_back({ScopeType::Fabric, "", 0}); }

void CableScopes::add_cable(const PortRef& a, const PortRef& b,
                            const std::vector<std::pair<ScopeType, std::string>>& scopes) {
  const auto cable = static_cast<uint32_t>(of_cable_.size());
  std::vector<uint32_t> in{0};
  for (const auto& [type, name] : scopes) {
    auto [it, fresh] =
        scope_index_.try_emplace(std::string(to_string(type)) + ":" + name, static_cast<uint32_t>(scopes_.size()));
    if (fresh) scopes_.push_back({type, name, 0});
    if (std::find(in.begin(), in.end(), it->second) == in.end()) in.push_back(it->second);
  }
  for (uint32_t s : in) ++scopes_[s].cables;
  of_cable_.push_back(std::move(in));
  cable_at_[port_key(a)] = cable;
  cable_at_[port_key(b)] = cable;
}

int64_t CableScopes::cable_at(const PortRef& p) const {
  auto it = cable_at_.find(port_key(p));
  return it == cable_at_.end() ? int64_t{-1} : int64_t{it->second};
}

std::vector<Finding> group_systemic_causes(std::vector<Finding> findings, const CableScopes& scopes,
                                           const SystemicRule& rule) {
  // Findings about one cable, by signature: (finding, cable) pairs.
  std::unordered_map<std::string, std::vector<std::pair<size_t, uint32_t>>> by_signature;
  std::vector<std::string> order;  // signatures in order of first appearance, for stable output
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (f.severity < Severity::Warning || f.kind == FindingKind::Systemic || f.ports.empty() || f.ports.size() > 2)
      continue;
    int64_t cable = scopes.cable_at(f.ports[0]);
    if (cable < 0 || (f.ports.size() == 2 && scopes.cable_at(f.ports[1]) != cable)) continue;
    const std::string sig =
        std::string(to_string(f.kind)) + "|" + to_string(f.severity) + "|" + shared_evidence(f).dump();
    auto [it, fresh] = by_signature.try_emplace(sig);
    if (fresh) order.push_back(sig);
    it->second.push_back({i, static_cast<uint32_t>(cable)});
  }
  // Of two scopes the findings fill equally, the wider names the cause (the fabric, not each of
  // its switches); equal sizes go by type (fabric before tier ... before switch), then name.
  auto wider = [&](uint32_t a, uint32_t b) {
    const CauseScope &sa = scopes.scopes()[a], &sb = scopes.scopes()[b];
    if (sa.cables != sb.cables) return sa.cables > sb.cables;
    if (sa.type != sb.type) return sa.type < sb.type;
    return sa.name < sb.name;
  };
  std::vector<char> claimed(findings.size(), 0);
  std::vector<Finding> systemic;
  // Distinct cables per (signature, scope): a cable is counted once even when several findings
  // name it (errors under load in every stage).
  std::vector<size_t> stamp(scopes.cable_count(), 0);
  size_t pass = 0;
  for (const auto& sig : order) {
    std::unordered_map<uint32_t, std::vector<std::pair<size_t, uint32_t>>> in_scope;  // scope -> members
    for (const auto& member : by_signature[sig])
      for (uint32_t s : scopes.scopes_of(member.second)) in_scope[s].push_back(member);
    // Claim the qualifying scope that matches the open findings best, until none qualifies.
    const auto& all_members = by_signature[sig];
    for (;;) {
      ++pass;
      size_t open_cables = 0;  // |F|: the cables of this signature's open findings
      for (const auto& [i, cable] : all_members)
        if (!claimed[i] && stamp[cable] != pass) stamp[cable] = pass, ++open_cables;
      uint32_t best = UINT32_MAX;
      double best_match = 0;
      size_t best_cables = 0;
      for (const auto& [s, members] : in_scope) {
        ++pass;
        size_t cables = 0;  // |F and S|
        for (const auto& [i, cable] : members)
          if (!claimed[i] && stamp[cable] != pass) stamp[cable] = pass, ++cables;
        const size_t size = scopes.scopes()[s].cables;
        if (cables < rule.min_cables || static_cast<double>(cables) < rule.share * static_cast<double>(size)) continue;
        // |F and S| / |F or S|: the fabric at 4xHDR but for three cables is the fabric, not its
        // leaf-spine tier that is all at 4xHDR; one rail at 4xHDR is the rail, not half a tier.
        const double match = static_cast<double>(cables) / static_cast<double>(open_cables + size - cables);
        if (best == UINT32_MAX || match > best_match || (match == best_match && wider(s, best)))
          best = s, best_match = match, best_cables = cables;
      }
      if (best == UINT32_MAX) break;
      std::vector<Finding> grouped;
      for (const auto& [i, cable] : in_scope[best])
        if (!claimed[i]) claimed[i] = 1, grouped.push_back(std::move(findings[i]));
      systemic.push_back(systemic_finding(scopes.scopes()[best], std::move(grouped), best_cables));
      in_scope.erase(best);
    }
  }
  std::vector<Finding> out;
  for (size_t i = 0; i < findings.size(); ++i)
    if (!claimed[i]) out.push_back(std::move(findings[i]));
  for (auto& f : systemic) out.push_back(std::move(f));
  return out;
}

}  // namespace ibburn
