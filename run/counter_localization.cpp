#include "run/counter_localization.h"

#include <map>

#include <fmt/format.h>

#include "localization/localize.h"
#include "localization/suspect_cable_details.h"
#include "report/history.h"

namespace ibburn::run {

std::vector<localization::PortLoad> port_loads(const routing::RouteModel& m,
                                               const std::vector<counters::PortDelta>& deltas) {
  using counters::Counter;
  std::map<std::pair<uint64_t, int>, const counters::PortDelta*> by_port;
  for (const auto& d : deltas) by_port.emplace(std::pair(d.now->node_guid, d.now->port), &d);
  auto delta_at = [&](topo::PortEnd at) -> const counters::PortDelta* {
    auto it = by_port.find({m.fabric.node(at.node).guid, at.port});
    return it == by_port.end() ? nullptr : it->second;
  };
  std::vector<localization::PortLoad> out(m.cables->size());
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e) {
    const routing::Edge& edge = m.cables->edge(e);
    if (!m.fabric.node(edge.from.node).is_switch()) continue;
    const counters::PortDelta* d = delta_at(edge.from);
    if (d && d->delta.has(Counter::PortXmitData)) {
      out[e].data_octets = 4.0 * static_cast<double>(d->delta.get(Counter::PortXmitData));
    } else if (const counters::PortDelta* peer = delta_at(edge.to); peer && peer->delta.has(Counter::PortRcvData)) {
      out[e].data_octets = 4.0 * static_cast<double>(peer->delta.get(Counter::PortRcvData));
    }
    if (d && d->delta.has(Counter::PortXmitWait))
      out[e].wait = static_cast<double>(d->delta.get(Counter::PortXmitWait));
  }
  return out;
}

CounterLocalization::CounterLocalization(const routing::RouteModel& model, localization::CounterRules rules)
    : model_(model), rules_(rules), groups_(routing::equal_port_groups(model.fabric, *model.cables, *model.router)) {}

void CounterLocalization::add_stage(const std::vector<counters::PortDelta>& deltas, int stage) {
  if (groups_.empty()) return;
  for (const auto& s : localization::localize_by_counters(groups_, port_loads(model_, deltas), rules_)) {
    const routing::EdgeId back = model_.cables->reverse(s.edge);
    auto [it, fresh] = by_cable_.try_emplace({std::min(s.edge, back), std::max(s.edge, back)});
    it->second.stages.insert(stage);
    if (fresh || s.confidence > it->second.best.confidence) it->second.best = s, it->second.stage = stage;
  }
}

std::vector<Finding> CounterLocalization::findings() const {
  const topo::Fabric& f = model_.fabric;
  std::vector<Finding> out;
  for (const auto& [cable, n] : by_cable_) {
    const localization::CounterSuspect& s = n.best;
    const routing::Edge& edge = model_.cables->edge(s.edge);
    const routing::PortGroup& g = groups_[s.group];
    std::vector<std::string> group;
    for (routing::EdgeId e : g.edges) group.push_back(f.port_name(model_.cables->edge(e).from));
    Finding x;
    x.kind = FindingKind::SuspectCable;
    x.severity = s.confidence >= localization::kConfident ? Severity::Error : Severity::Warning;
    x.ports = {{f.node(edge.from.node).name, edge.from.port}, {f.node(edge.to.node).name, edge.to.port}};
    x.message = fmt::format(
        "cable {}: under adaptive routing its switch port {} sent {:.3g} GB in stage {}, {:.0f}% of the median of "
        "the {} port(s) the routing treats as its equals ({:.3g} GB){} (port counters, confidence {:.0f}%)",
        model_.cables->describe(f, s.edge), f.port_name(edge.from), s.data_octets / 1e9, n.stage,
        100 * s.data_octets / s.group_data_octets, g.edges.size() - 1, s.group_data_octets / 1e9,
        s.wait >= 0 && s.group_wait >= 0
            ? fmt::format(" and waited {:.0f} ticks to send (equals: {:.0f})", s.wait, s.group_wait)
            : std::string(),
        100 * s.confidence);
    localization::CounterEvidence c{model_.cables->describe(f, s.edge),
                                    f.port_name(edge.from),
                                    f.port_name(edge.to),
                                    n.stage,
                                    {n.stages.begin(), n.stages.end()},
                                    group,
                                    s.data_octets,
                                    s.group_data_octets,
                                    s.z_data,
                                    s.confidence,
                                    {},
                                    {},
                                    {}};
    if (s.wait >= 0) c.xmit_wait = s.wait;
    if (s.group_wait >= 0) c.group_median_xmit_wait = s.group_wait, c.z_wait = s.z_wait;
    x.details = localization::SuspectCableDetails{.counters = std::move(c)};
    out.push_back(std::move(x));
  }
  return out;
}

std::set<routing::EdgeId> CounterLocalization::named() const {
  std::set<routing::EdgeId> out;
  for (const auto& [cable, n] : by_cable_)
    if (n.best.confidence >= localization::kConfident) out.insert({cable.first, cable.second});
  return out;
}

void CounterLocalization::explain_shortfalls(std::vector<Finding>& coverage) const {
  std::set<std::string> cables;
  for (routing::EdgeId e : named()) {
    const routing::Edge& edge = model_.cables->edge(e);
    cables.insert(report::cable_name({model_.fabric.node(edge.from.node).name, edge.from.port},
                                     {model_.fabric.node(edge.to.node).name, edge.to.port}));
  }
  if (cables.empty()) return;
  std::erase_if(coverage, [&](const Finding& f) {
    return f.kind == FindingKind::NotExercised && f.ports.size() == 2 &&
           cables.count(report::cable_name(f.ports[0], f.ports[1]));
  });
  for (auto& f : coverage)
    if (f.kind == FindingKind::NotExercised) {
      f.severity = Severity::Warning;
      f.message += fmt::format("; adaptive routing moved load around the cable(s) its port counters named: {}",
                               fmt::join(cables, ", "));
    }
}

}  // namespace ibburn::run
