#include "counters/counter_check.h"

#include <fmt/format.h>

namespace ibburn::counters {
namespace {

std::string port_label(const PortSample& p) { return fmt::format("{}[{}]", p.node, p.port); }

std::vector<PortRef> link_ports(const PortSample& p) {
  std::vector<PortRef> ports{p.ref()};
  if (p.peer) ports.push_back(*p.peer);
  return ports;
}

}  // namespace

std::vector<Finding> saturated_findings(const Snapshot& now) {
  std::vector<Finding> out;
  for (const auto& p : now.ports) {
    if (!p.reachable) continue;
    std::vector<std::string> names;
    nlohmann::json details = nlohmann::json::object();
    for (size_t i = 0; i < kCounterCount; ++i) {
      Counter c = counter_at(i);
      if (!p.counters.saturated(c)) continue;
      names.push_back(counter_name(c));
      details[counter_name(c)] = {{"value", p.counters.get(c)}, {"bits", p.counters.bits[i]}};
    }
    if (names.empty()) continue;
    Finding f;
    f.kind = FindingKind::Saturated;
    f.severity = Severity::Warning;
    f.message = fmt::format("{}: {} pinned at maximum (stopped counting; clear with --clear)", port_label(p),
                            fmt::join(names, ", "));
    f.ports = {p.ref()};
    f.details = {{"counters", details}, {"lid", p.lid}};
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Finding> unreachable_findings(const Snapshot& now) {
  std::vector<Finding> out;
  for (const auto& p : now.ports) {
    if (p.reachable) continue;
    Finding f;
    f.kind = FindingKind::Unreachable;
    f.severity = Severity::Error;
    f.message = fmt::format("{}: PMA did not answer (lid {}): {}", port_label(p), p.lid,
                            p.error.empty() ? "no response" : p.error);
    f.ports = link_ports(p);
    f.details = {{"lid", p.lid}, {"error", p.error}};
    out.push_back(std::move(f));
  }
  return out;
}

namespace {
// Saturated and unreachable ports are reported the same with or without a baseline.
void append_port_health(std::vector<Finding>& out, const Snapshot& now) {
  auto sat = saturated_findings(now), unr = unreachable_findings(now);
  out.insert(out.end(), sat.begin(), sat.end());
  out.insert(out.end(), unr.begin(), unr.end());
}
}  // namespace

std::vector<Finding> check_snapshot(const Snapshot& now, const Thresholds& thresholds) {
  std::vector<Finding> out;
  for (const auto& p : now.ports) {
    if (!p.reachable) continue;
    std::vector<std::string> parts;
    nlohmann::json counters = nlohmann::json::object();
    for (size_t i = 0; i < kErrorCounterCount; ++i) {
      Counter c = counter_at(i);
      if (!p.counters.has(c) || !thresholds.exceeded(c, p.counters.get(c))) continue;
      parts.push_back(fmt::format("{} {} > {}", counter_name(c), p.counters.get(c), thresholds.get(c)));
      counters[counter_name(c)] = {{"value", p.counters.get(c)}, {"threshold", thresholds.get(c)}};
    }
    if (parts.empty()) continue;
    Finding f;
    f.kind = FindingKind::Errors;
    f.severity = Severity::Error;
    f.message = fmt::format("{}: {}", port_label(p), fmt::join(parts, ", "));
    f.ports = link_ports(p);
    f.details = {{"counters", counters}, {"lid", p.lid}};
    out.push_back(std::move(f));
  }
  append_port_health(out, now);
  return out;
}

std::vector<Finding> check_deltas(const Snapshot& now, const std::vector<PortDelta>& deltas,
                                  const Thresholds& thresholds) {
  std::vector<Finding> out;
  for (const auto& d : deltas) {
    const PortSample& p = *d.now;
    std::vector<std::string> parts;
    nlohmann::json counters = nlohmann::json::object();
    for (size_t i = 0; i < kErrorCounterCount; ++i) {
      Counter c = counter_at(i);
      if (!d.delta.has(c) || !thresholds.exceeded(c, d.delta.get(c))) continue;
      auto per_tb = d.per_terabyte(c);
      parts.push_back(fmt::format("{} +{} > {} ({:.1f}/h{})", counter_name(c), d.delta.get(c), thresholds.get(c),
                                  d.per_hour(c), per_tb ? fmt::format(", {:.3g}/TB", *per_tb) : ""));
      nlohmann::json e = {{"rise", d.delta.get(c)}, {"threshold", thresholds.get(c)}, {"per_hour", d.per_hour(c)}};
      if (per_tb) e["per_terabyte"] = *per_tb;
      counters[counter_name(c)] = e;
    }
    if (parts.empty()) continue;
    Finding f;
    f.kind = FindingKind::Errors;
    f.severity = Severity::Error;
    f.message = fmt::format("{}: {} since baseline{}", port_label(p), fmt::join(parts, ", "),
                            d.reset ? " (counters were cleared in between)" : "");
    f.ports = link_ports(p);
    f.details = {{"counters", counters}, {"lid", p.lid}, {"hours", d.hours}, {"cleared_in_between", d.reset}};
    if (d.data_octets) f.details["data_octets"] = *d.data_octets;
    out.push_back(std::move(f));
  }
  append_port_health(out, now);
  return out;
}

}  // namespace ibburn::counters
