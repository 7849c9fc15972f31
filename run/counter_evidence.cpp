#include "run/counter_evidence.h"

#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "common/finding_details.h"
#include "localization/burn_localize.h"
#include "topo/fabric_summary.h"

namespace ibburn::run {
namespace {

using counters::Counter;

// Congestion and management traffic, not a cable's health.
bool judged_under_load(Counter c) {
  return counters::is_error_counter(c) && c != Counter::PortXmitWait && c != Counter::VL15Dropped;
}

std::string ref_name(const PortRef& r) { return fmt::format("{}[{}]", r.node, r.port); }

PortRef edge_ref(const topo::Fabric& f, topo::PortEnd p) { return {f.node(p.node).name, p.port}; }

std::string describe(const routing::RouteModel& m, routing::EdgeId e) { return m.cables->describe(m.fabric, e); }

}  // namespace

counters::Thresholds LoadErrorRules::default_counts() {
  counters::Thresholds t = counters::Thresholds::zero();
  t.set(Counter::SymbolErrorCounter, std::numeric_limits<uint64_t>::max());
  return t;
}

std::vector<std::optional<topo::PortEnd>> rank_ports(const topo::Fabric& fabric,
                                                     const std::vector<uint64_t>& port_guid_by_rank,
                                                     std::vector<int>* missing) {
  const auto by_guid = topo::hca_ports_by_guid(fabric);
  std::vector<std::optional<topo::PortEnd>> out;
  for (size_t r = 0; r < port_guid_by_rank.size(); ++r) {
    auto it = by_guid.find(port_guid_by_rank[r]);
    if (it != by_guid.end()) {
      out.emplace_back(it->second);
    } else {
      out.emplace_back();
      if (missing) missing->push_back(static_cast<int>(r));
    }
  }
  return out;
}

std::vector<double> expected_octets(const routing::RouteModel& m,
                                    const std::vector<std::optional<topo::PortEnd>>& ports_by_rank,
                                    const burn::StageResult& stage) {
  std::vector<double> out(m.cables->size(), 0.0);
  routing::PathShares path;
  auto port_of = [&](int rank) -> const std::optional<topo::PortEnd>* {
    return rank >= 0 && rank < static_cast<int>(ports_by_rank.size()) ? &ports_by_rank[rank] : nullptr;
  };
  for (const auto& f : stage.flows)
    for (const auto& d : f.directions) {
      const auto* a = port_of(d.from);
      const auto* b = port_of(d.to);
      if (!a || !b || !*a || !*b || d.bytes == 0) continue;
      path.clear();
      try {
        m.router->route(**a, **b, path);
      } catch (const routing::RoutingError&) {
        continue;  // the burn already failed or judged this direction
      }
      for (const auto& [e, share] : path) out[e] += static_cast<double>(d.bytes) * share;
    }
  return out;
}

std::vector<Finding> errors_under_load(const std::vector<counters::PortDelta>& deltas, const LoadErrorRules& rules,
                                       int stage) {
  std::vector<Finding> out;
  for (const auto& d : deltas) {
    const counters::PortSample& p = *d.now;
    std::vector<std::string> rose;
    ErrorsUnderLoadDetails evidence;
    evidence.stage = stage;
    for (size_t i = 0; i < counters::kErrorCounterCount; ++i) {
      const Counter c = counters::counter_at(i);
      if (!judged_under_load(c) || !d.delta.has(c) || d.delta.get(c) == 0) continue;
      evidence.rise[counters::counter_name(c)] = d.delta.get(c);
      if (rules.counts.exceeded(c, d.delta.get(c)))
        rose.push_back(fmt::format("{} +{}", counters::counter_name(c), d.delta.get(c)));
    }
    if (evidence.rise.empty()) continue;
    // Words of 4 octets, as the data counters count.
    const bool has_data = d.delta.has(Counter::PortRcvData) && d.delta.has(Counter::PortXmitData);
    const double rcv_bits = has_data ? 32.0 * static_cast<double>(d.delta.get(Counter::PortRcvData)) : 0;
    const double xmit_bits = has_data ? 32.0 * static_cast<double>(d.delta.get(Counter::PortXmitData)) : 0;
    const uint64_t symbols = d.delta.has(Counter::SymbolErrorCounter) ? d.delta.get(Counter::SymbolErrorCounter) : 0;
    std::optional<double> ber;
    if (symbols && rcv_bits > 0) ber = static_cast<double>(symbols) / rcv_bits;
    // Symbol errors with no data counted: the rate cannot clear them.
    const bool ber_high = symbols && (!ber || *ber > rules.max_symbol_ber);
    if (ber_high)
      rose.push_back(ber ? fmt::format("SymbolErrorCounter +{} ({:.1e} per bit received)", symbols, *ber)
                         : fmt::format("SymbolErrorCounter +{} (no data counted)", symbols));
    if (rose.empty()) continue;
    Finding f;
    f.kind = FindingKind::ErrorsUnderLoad;
    f.severity = Severity::Error;
    f.ports = {p.ref()};
    if (p.peer) f.ports.push_back(*p.peer);
    f.message = fmt::format("stage {}: {}{} under load: {} ({:.3g} Gbit received, {:.3g} Gbit sent in the window)",
                            stage, ref_name(p.ref()), p.peer ? " (cable to " + ref_name(*p.peer) + ")" : "",
                            fmt::join(rose, ", "), rcv_bits / 1e9, xmit_bits / 1e9);
    evidence.bits_received = rcv_bits;
    evidence.bits_sent = xmit_bits;
    evidence.seconds = d.hours * 3600;
    evidence.symbol_errors_per_bit = ber;
    f.details = evidence;
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<double> seen_octets(const routing::RouteModel& m, const std::vector<counters::PortDelta>& deltas) {
  std::map<std::pair<uint64_t, int>, const counters::PortDelta*> by_port;
  for (const auto& d : deltas) by_port.emplace(std::pair(d.now->node_guid, d.now->port), &d);
  std::vector<double> out(m.cables->size(), -1.0);
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e) {
    const routing::Edge& edge = m.cables->edge(e);
    // The switch's own count: out of its port, or into it from an HCA.
    const bool from_switch = m.fabric.node(edge.from.node).is_switch() || !m.fabric.node(edge.to.node).is_switch();
    const topo::PortEnd at = from_switch ? edge.from : edge.to;
    const Counter c = from_switch ? Counter::PortXmitData : Counter::PortRcvData;
    auto it = by_port.find({m.fabric.node(at.node).guid, at.port});
    if (it == by_port.end() || !it->second->delta.has(c)) continue;
    out[e] = 4.0 * static_cast<double>(it->second->delta.get(c));
  }
  return out;
}

std::vector<Finding> coverage_findings(const routing::RouteModel& m, const std::vector<double>& expected,
                                       const std::vector<double>& seen, double min_share, double seconds, int stage,
                                       double min_load) {
  constexpr size_t kOneByOne = 16;  // more than this: one finding, the routes differ
  struct Short {
    routing::EdgeId edge;
    double expected, seen;
  };
  std::vector<Short> shorts;
  size_t judged = 0;
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e) {
    const double capacity_octets = m.cables->edge(e).capacity_gbps * 1e9 / 8 * seconds;
    if (expected[e] <= 0 || expected[e] < min_load * capacity_octets) continue;
    ++judged;
    if (seen[e] >= 0 && seen[e] >= min_share * expected[e]) continue;
    shorts.push_back({e, expected[e], seen[e]});
  }
  auto ports_of = [&](routing::EdgeId e) {
    return std::vector<PortRef>{edge_ref(m.fabric, m.cables->edge(e).from), edge_ref(m.fabric, m.cables->edge(e).to)};
  };
  auto seen_text = [](double s) { return s < 0 ? std::string("no data counter") : fmt::format("{:.3g} GB", s / 1e9); };
  std::vector<Finding> out;
  if (shorts.size() <= kOneByOne) {
    for (const auto& s : shorts) {
      Finding f;
      f.kind = FindingKind::NotExercised;
      f.severity = Severity::Error;
      f.ports = ports_of(s.edge);
      f.message = fmt::format(
          "stage {}: {} carried {} of the {:.3g} GB its routes should have put on it (< {:.0f}%): the switches route "
          "differently from the model",
          stage, describe(m, s.edge), seen_text(s.seen), s.expected / 1e9, min_share * 100);
      f.details = {{"stage", stage}, {"expected_octets", s.expected}, {"seen_octets", s.seen}};
      out.push_back(std::move(f));
    }
    return out;
  }
  Finding f;
  f.kind = FindingKind::NotExercised;
  f.severity = Severity::Error;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : shorts) {
    if (f.ports.size() < 8)
      for (auto& r : ports_of(s.edge)) f.ports.push_back(r);
    list.push_back({{"cable", describe(m, s.edge)}, {"expected_octets", s.expected}, {"seen_octets", s.seen}});
  }
  f.message = fmt::format(
      "stage {}: {} of {} loaded cable directions carried less than {:.0f}% of what the modelled routes put on them "
      "(first: {}): the switches route differently from the model (adaptive routing, stale forwarding tables?)",
      stage, shorts.size(), judged, min_share * 100, describe(m, shorts.front().edge));
  f.details = {{"stage", stage}, {"directions", list}};
  out.push_back(std::move(f));
  return out;
}

std::vector<Finding> unused_directions(const routing::RouteModel& m, const std::vector<double>& expected_total,
                                       const std::set<routing::EdgeId>& told) {
  nlohmann::json list = nlohmann::json::array();
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e)
    if (expected_total[e] <= 0 && !told.contains(e)) list.push_back(describe(m, e));
  if (list.empty()) return {};
  Finding f;
  f.kind = FindingKind::UnusedByRoutes;
  f.severity = Severity::Info;
  f.message = fmt::format(
      "{} cable direction(s) carried no planned traffic: no route between the burn's endpoints uses them (first: "
      "{}); their data counters were not judged",
      list.size(), list.front().get<std::string>());
  f.details = {{"directions", list}};
  return {f};
}

}  // namespace ibburn::run
