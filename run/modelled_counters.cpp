#include "run/modelled_counters.h"

#include <algorithm>
#include <cmath>

namespace ibburn::run {

std::vector<PortRise> modelled_rises(const routing::RouteModel& m, const std::vector<double>& capacity,
                                     const std::vector<double>& edge_gbps, double seconds) {
  std::vector<PortRise> out;
  for (routing::EdgeId e = 0; e < edge_gbps.size() && e < m.cables->size(); ++e) {
    const auto words = static_cast<uint64_t>(edge_gbps[e] * 1e9 / 8 * seconds / 4);
    if (words == 0) continue;
    const routing::Edge& edge = m.cables->edge(e);
    const double nominal = edge.capacity_gbps, cap = e < capacity.size() ? capacity[e] : nominal;
    // Saturated: the direction carried its capacity (the fluid model's own tolerance).
    const bool saturated = edge_gbps[e] >= cap * (1 - 1e-6);
    const double idle_share = nominal > 0 ? std::max(0.0, 1 - cap / nominal) : 0;
    const auto wait =
        saturated ? static_cast<uint64_t>(std::llround(idle_share * seconds * kModelWaitTicksPerSecond)) : 0;
    out.push_back({edge.from, words, 0, wait});
    out.push_back({edge.to, 0, words, 0});
  }
  return out;
}

ModelledCounters::ModelledCounters(const routing::RouteModel& model, std::vector<double> capacity_gbps)
    : model_(model), capacity_(std::move(capacity_gbps)), by_edge_from_(model.cables->size()) {}

void ModelledCounters::add(const std::vector<double>& edge_gbps, double seconds) {
  seconds_ += seconds;
  for (const PortRise& r : modelled_rises(model_, capacity_, edge_gbps, seconds)) {
    Count& c = by_edge_from_[model_.cables->out_edge(r.port)];
    c.xmit += r.xmit_words, c.rcv += r.rcv_words, c.wait += r.xmit_wait;
  }
}

counters::Snapshot ModelledCounters::snapshot() const {
  using counters::Counter;
  counters::Snapshot s;
  s.time_ms = static_cast<int64_t>(std::llround(seconds_ * 1000));
  const topo::Fabric& f = model_.fabric;
  s.ports.reserve(model_.cables->size());
  for (routing::EdgeId e = 0; e < model_.cables->size(); ++e) {
    const routing::Edge& edge = model_.cables->edge(e);
    const topo::Node& node = f.node(edge.from.node);
    if (!node.is_switch()) continue;
    counters::PortSample& p = s.ports.emplace_back();
    p.node = node.name;
    p.node_guid = node.guid;
    p.node_type = node.type;
    p.port = edge.from.port;
    p.port_guid = f.port(edge.from).guid;
    p.lid = f.port(edge.from).lid;
    p.peer = PortRef{f.node(edge.to.node).name, edge.to.port};
    p.reachable = true;
    const Count& c = by_edge_from_[e];
    p.counters.set(Counter::PortXmitData, c.xmit, 64);
    p.counters.set(Counter::PortRcvData, c.rcv, 64);
    p.counters.set(Counter::PortXmitWait, c.wait, 32);
  }
  return s;
}

}  // namespace ibburn::run
