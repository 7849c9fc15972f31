#include "plan/routing.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace ibburn::plan {

topo::PortEnd attached_switch_port(const topo::Fabric& fabric, topo::PortEnd hca_port) {
  const topo::Port& p = fabric.port(hca_port);
  if (!p.linked()) throw RoutingError(fabric.port_name(hca_port) + " is not cabled");
  return p.remote;
}

LftRouter::LftRouter(const topo::Fabric& fabric, const CableIndex& cables, const ForwardingTables& lfts)
    : fabric_(fabric), cables_(cables), lft_by_node_(fabric.size(), nullptr) {
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    if (!fabric.node(n).is_switch()) continue;
    auto it = lfts.by_switch_guid.find(fabric.node(n).guid);
    if (it != lfts.by_switch_guid.end()) lft_by_node_[n] = &it->second;
  }
}

void LftRouter::route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const {
  uint16_t dlid = fabric_.port(dst).lid;
  if (dlid == 0) throw RoutingError(fabric_.port_name(dst) + " has no LID");
  if (!cables_.has_out_edge(src)) throw RoutingError(fabric_.port_name(src) + " is not cabled");
  EdgeId e = cables_.out_edge(src);
  out.emplace_back(e, 1.0);
  topo::PortEnd at = cables_.edge(e).to;
  // A fat tree path is at most 6 hops; anything much longer is a routing loop.
  for (int hops = 0; hops < 64; ++hops) {
    if (at.node == dst.node) {
      if (at.port != dst.port)
        throw RoutingError("route to " + fabric_.port_name(dst) + " arrives on port " + std::to_string(at.port));
      return;
    }
    const topo::Node& node = fabric_.node(at.node);
    if (!node.is_switch()) throw RoutingError("route to " + fabric_.port_name(dst) + " ends at " + node.name);
    const auto* lft = lft_by_node_[at.node];
    if (!lft) throw RoutingError("no forwarding table for switch " + node.name);
    uint8_t port = dlid < lft->size() ? (*lft)[dlid] : ForwardingTables::kNoRoute;
    topo::PortEnd egress{at.node, port};
    if (port == ForwardingTables::kNoRoute || port == 0 || !cables_.has_out_edge(egress))
      throw RoutingError("switch " + node.name + " has no route to LID " + std::to_string(dlid) + " (" +
                         fabric_.port_name(dst) + ")");
    e = cables_.out_edge(egress);
    out.emplace_back(e, 1.0);
    at = cables_.edge(e).to;
  }
  throw RoutingError("routing loop towards " + fabric_.port_name(dst));
}

struct AdaptiveRouter::ToDestination {
  std::vector<int32_t> dist;  // hops to the destination switch, -1 unreachable
  std::vector<double> paths;  // number of shortest paths to the destination switch
};

AdaptiveRouter::AdaptiveRouter(const topo::Fabric& fabric, const CableIndex& cables)
    : fabric_(fabric), cables_(cables), adj_(fabric.size()) {
  for (EdgeId e = 0; e < cables.size(); ++e) {
    const Edge& ed = cables.edge(e);
    if (fabric.node(ed.from.node).is_switch() && fabric.node(ed.to.node).is_switch())
      adj_[ed.from.node].emplace_back(e, ed.to.node);
  }
}

AdaptiveRouter::~AdaptiveRouter() = default;

const AdaptiveRouter::ToDestination& AdaptiveRouter::towards(topo::NodeId d) const {
  auto it = cache_.find(d);
  if (it != cache_.end()) return *it->second;
  auto td = std::make_unique<ToDestination>();
  td->dist.assign(fabric_.size(), -1);
  td->paths.assign(fabric_.size(), 0.0);
  // Links are symmetric, so BFS over outgoing edges from d gives distances towards d.
  std::vector<topo::NodeId> order{d};
  td->dist[d] = 0;
  td->paths[d] = 1;
  for (size_t i = 0; i < order.size(); ++i) {
    topo::NodeId u = order[i];
    for (auto [e, v] : adj_[u]) {
      if (td->dist[v] < 0) {
        td->dist[v] = td->dist[u] + 1;
        order.push_back(v);
      }
      // Each parallel cable is a distinct path.
      if (td->dist[v] == td->dist[u] + 1) td->paths[v] += td->paths[u];
    }
  }
  auto& ref = *td;
  cache_.emplace(d, std::move(td));
  return ref;
}

PathShares AdaptiveRouter::switch_shares(topo::NodeId s, topo::NodeId d) const {
  const ToDestination& td = towards(d);
  if (td.dist[s] < 0) throw RoutingError("no path from " + fabric_.node(s).name + " to " + fabric_.node(d).name);
  // Push the flow down the shortest-path DAG level by level; each node splits what reaches
  // it over its next hops in proportion to their path counts.
  PathShares out;
  std::vector<std::pair<topo::NodeId, double>> level{{s, 1.0}}, next;
  std::unordered_map<topo::NodeId, double> acc;
  while (!level.empty()) {
    acc.clear();
    next.clear();
    for (auto [u, share] : level) {
      if (u == d) continue;
      for (auto [e, v] : adj_[u]) {
        if (td.dist[v] != td.dist[u] - 1) continue;
        double part = share * td.paths[v] / td.paths[u];
        out.emplace_back(e, part);
        auto [it, fresh] = acc.emplace(v, 0.0);
        if (fresh) next.emplace_back(v, 0.0);
        it->second += part;
      }
    }
    for (auto& [v, share] : next) share = acc[v];
    level.swap(next);
  }
  return out;
}

void AdaptiveRouter::route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const {
  if (!cables_.has_out_edge(src)) throw RoutingError(fabric_.port_name(src) + " is not cabled");
  if (!cables_.has_out_edge(dst)) throw RoutingError(fabric_.port_name(dst) + " is not cabled");
  EdgeId first = cables_.out_edge(src);
  EdgeId last = cables_.reverse(cables_.out_edge(dst));
  topo::NodeId s = cables_.edge(first).to.node;
  topo::NodeId d = cables_.edge(last).from.node;
  out.emplace_back(first, 1.0);
  if (s != d) {
    const uint64_t key = (uint64_t(s) << 32) | d;
    auto hit = pair_cache_.find(key);
    if (hit == pair_cache_.end()) {
      if (pair_cache_.size() >= 8192) pair_cache_.clear();
      hit = pair_cache_.emplace(key, switch_shares(s, d)).first;
    }
    out.insert(out.end(), hit->second.begin(), hit->second.end());
  }
  out.emplace_back(last, 1.0);
}

}  // namespace ibburn::plan
