#include "run/service_actions.h"

#include <algorithm>

#include <fmt/format.h>

#include "burn/verdict.h"
#include "common/finding_details.h"
#include "report/history.h"
#include "run/health_evidence.h"

namespace ibburn::run {
namespace {

int rank_of(const std::string& action) { return action == "recable" ? 3 : action == "replace" ? 2 : 1; }

std::string csv_field(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

// Errors under load whose link went down on the way (its counters say so: a switch's or HCA's
// PerfMgt names, or a host port's kernel counters as sysfs names them).
bool link_went_down(const Finding& f) {
  if (f.kind != FindingKind::ErrorsUnderLoad) return false;
  const auto rise = details_of<FindingKind::ErrorsUnderLoad>(f).rise;
  for (const char* counter : {"LinkDownedCounter", "LinkErrorRecoveryCounter", "link_downed", "link_error_recovery"})
    if (rise.contains(counter)) return true;
  return false;
}

std::string action_for(const Finding& f, bool failed_before) {
  switch (info(f.kind).cable) {
    case CableService::Recable: return "recable";
    case CableService::Replace: return "replace";
    case CableService::Reseat:
    case CableService::None: break;
  }
  if (failed_before || link_went_down(f)) return "replace";
  return "reseat";
}

// The catalogue says which kinds act and from which severity (common/finding_catalogue.cpp).
bool acts(const Finding& f) { return f.severity >= info(f.kind).acts_from; }
// A vendor capture's findings (ibdiagnet) are told, not acted on by draining: the capture is
// of the fabric, taken apart from this job's traffic.
bool drains(const Finding& f) { return info(f.kind).drains && acts(f) && !from_health_capture(f); }

}  // namespace

std::vector<DrainEntry> hosts_to_drain(const std::vector<Finding>& findings,
                                       const std::map<std::string, std::string>& host_of_hca,
                                       const burn::BurnSummary& burn) {
  std::map<std::string, std::string> reason;
  for (const auto& h : burn.host_checks)
    if (h.refused) reason.emplace(h.host, "host check: refused by the preflight");
  // Findings first: the burn's endpoint findings name the HCA port and its cable as the site
  // does once the fabric named them (localization/endpoint_names.h).
  std::vector<Finding> sorted = findings;
  sort_worst_first(sorted);
  for (const auto& f : sorted) {
    if (!drains(f)) continue;
    for (const auto& p : f.ports) {
      auto it = host_of_hca.find(p.node);
      if (it == host_of_hca.end()) continue;
      reason.emplace(it->second, to_string(f.kind) + (": " + f.message));
      break;  // a cable between two HCAs drains the first host named
    }
  }
  // Endpoints the fabric could not name (no port GUID known for their rank) as the burn tells them.
  for (const auto& l : burn.lost_ranks)
    if (l.host) reason.emplace(*l.host, fmt::format("lost rank {}: {}", l.rank, l.reason));
  for (const auto& e : burn.endpoints)
    if (e.host && (e.verdict == burn::Verdict::Slow || e.verdict == burn::Verdict::Failed))
      reason.emplace(*e.host, fmt::format("{}_endpoint: {} {}: {}", burn::to_string(e.verdict), *e.host,
                                          e.endpoint.value_or(""), e.reason.value_or("")));
  std::vector<DrainEntry> out;
  for (auto& [host, why] : reason) out.push_back({host, why});
  return out;
}

std::vector<CableAction> cables_to_service(const std::vector<Finding>& findings, const wiring::Wiring* wiring,
                                           const std::set<std::string>& failed_before) {
  std::map<std::string, std::string> labels;
  if (wiring)
    for (const auto& c : wiring->cables)
      if (!c.label.empty()) labels[report::cable_name({c.a.node, c.a.port}, {c.b.node, c.b.port})] = c.label;
  std::map<std::string, CableAction> by_key;
  std::vector<Finding> sorted = findings;
  sort_worst_first(sorted);
  for (const auto& f : sorted) {
    if (info(f.kind).cable == CableService::None || f.ports.empty() || !acts(f)) continue;
    // One port: a host port whose cable no fabric names (RoCE); a rank the burn could not name is no port.
    const bool far_known = f.ports.size() >= 2;
    if (!far_known && burn::rank_of_ref(f.ports[0])) continue;
    const PortRef far = far_known ? f.ports[1] : PortRef{"", 0};
    const std::string k = report::cable_name(f.ports[0], far);
    auto [it, fresh] = by_key.try_emplace(k);
    CableAction& c = it->second;
    const std::string action = action_for(f, failed_before.count(k) > 0);
    if (fresh) {
      c.a = f.ports[0];
      c.b = far;
      if (far_known && c.b.node < c.a.node) std::swap(c.a, c.b);
      auto l = labels.find(k);
      if (l != labels.end()) c.label = l->second;
      c.action = action;
    } else if (rank_of(action) > rank_of(c.action)) {
      c.action = action;
    }
    c.evidence += (c.evidence.empty() ? "" : "; ") + std::string(to_string(f.kind)) + ": " + f.message;
  }
  std::vector<CableAction> out;
  for (auto& [k, c] : by_key) out.push_back(std::move(c));
  return out;
}

void ServiceCosts::add(std::map<std::string, Cost>& to, const std::string& key, double slowdown,
                       const std::string& text) {
  auto [it, added] = to.try_emplace(key, Cost{slowdown, text});
  if (!added && slowdown > it->second.slowdown) it->second = {slowdown, text};
}

namespace {

// Each entry's cost by its key, then the costliest first (the unpriced keep their order).
template <class Entry, class KeyOf>
void order(std::vector<Entry>& list, const std::map<std::string, ServiceCosts::Cost>& by, KeyOf key_of) {
  for (auto& e : list)
    if (auto it = by.find(key_of(e)); it != by.end()) e.cost = it->second.text, e.slowdown = it->second.slowdown;
  std::stable_sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) { return a.slowdown > b.slowdown; });
}

}  // namespace

void order_by_cost(std::vector<DrainEntry>& hosts, const ServiceCosts& costs) {
  order(hosts, costs.by_host, [](const DrainEntry& h) { return h.host; });
}

void order_by_cost(std::vector<CableAction>& cables, const ServiceCosts& costs) {
  order(cables, costs.by_cable, [](const CableAction& c) { return report::cable_name(c.a, c.b); });
}

std::string drain_text(const std::vector<DrainEntry>& hosts) {
  auto one_line = [](std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\t', ' ');
    return text;
  };
  std::string out;
  for (const auto& h : hosts)
    out += h.host + "\t" + one_line(h.reason) + (h.cost.empty() ? "" : "\tcost: " + one_line(h.cost)) + "\n";
  return out;
}

std::string cables_csv(const std::vector<CableAction>& cables) {
  std::string out = "a_node,a_port,b_node,b_port,cable,action,cost,evidence,a_part,b_part\n";
  for (const auto& c : cables)
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csv_field(c.a.node), c.a.port, csv_field(c.b.node), c.b.port,
                       csv_field(c.label), c.action, csv_field(c.cost), csv_field(c.evidence), csv_field(c.a_part),
                       csv_field(c.b_part));
  return out;
}

}  // namespace ibburn::run
