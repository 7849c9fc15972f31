#include "routing/routing.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace ibburn::routing {

topo::PortEnd attached_switch_port(const topo::Fabric& fabric, topo::PortEnd hca_port) {
  const topo::Port& p = fabric.port(hca_port);
  if (!p.linked()) throw RoutingError(fabric.port_name(hca_port) + " is not cabled");
  return p.remote;
}

std::vector<char> guid_shared(const topo::Fabric& fabric) {
  std::vector<char> shared(fabric.size(), 0);
  for (const auto& group : fabric.duplicate_guids())
    for (const topo::NodeId n : group) shared[n] = 1;
  return shared;
}

std::vector<const std::vector<uint8_t>*> ForwardingTables::by_node(const topo::Fabric& fabric) const {
  std::vector<const std::vector<uint8_t>*> out(fabric.size(), nullptr);
  const std::vector<char> shared = guid_shared(fabric);
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    if (!fabric.node(n).is_switch() || shared[n]) continue;
    if (const auto it = by_switch_guid.find(fabric.node(n).guid); it != by_switch_guid.end()) out[n] = &it->second;
  }
  return out;
}

LftRouter::LftRouter(const topo::Fabric& fabric, const CableIndex& cables, const ForwardingTables& lfts)
    : fabric_(fabric), cables_(cables), lft_by_node_(lfts.by_node(fabric)) {}

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

void Router::route_split(topo::PortEnd src, topo::PortEnd dst, SplitRoute& out) const {
  out.edges.clear();
  out.from = out.to = SplitRoute::kNone;
  route(src, dst, out.edges);
}

int Router::split_hops(topo::NodeId at, topo::NodeId to, std::vector<Hop>& out) const {
  out.clear();
  return at == to ? 0 : -1;
}

void SplitSpread::spread(const Router& router, topo::NodeId to,
                         const std::vector<std::pair<topo::NodeId, double>>& entries, const std::vector<char>* closed) {
  visits_.clear();
  carried_.clear();
  all_hops_.clear();
  for (topo::NodeId v : last_nodes_) open_[v] = 1.0;
  last_nodes_.clear();
  auto reach = [&](topo::NodeId v, int level) {
    if (v >= traffic_.size()) {
      traffic_.resize(v + 1, 0.0), seen_.resize(v + 1, 0);
      open_.resize(v + 1, 1.0), hop_at_.resize(v + 1);
    }
    if (!seen_[v]) seen_[v] = 1, levels_[level].push_back(v);
  };
  int top = 0;
  for (auto [node, traffic] : entries) {
    const int d = router.split_hops(node, to, hops_);
    if (d < 0) throw RoutingError("no path towards the split's destination");
    if (levels_.size() <= static_cast<size_t>(d)) levels_.resize(d + 1);
    reach(node, d);
    traffic_[node] += traffic;
    top = std::max(top, d);
  }
  // Every hop leads one level down, so level k is complete before it is spread; the hops
  // are kept so that open path shares can be summed from the destination up first.
  for (int k = top; k > 0; --k)
    for (topo::NodeId u : levels_[k]) {
      router.split_hops(u, to, hops_);
      hop_at_[u] = {all_hops_.size(), all_hops_.size() + hops_.size()};
      all_hops_.insert(all_hops_.end(), hops_.begin(), hops_.end());
      for (const Hop& h : hops_) reach(h.next, k - 1);
    }
  auto is_open = [&](const Hop& h) { return !closed || !(*closed)[h.edge]; };
  if (closed)
    for (int k = 1; k <= top; ++k)
      for (topo::NodeId u : levels_[k]) {
        double open = 0;
        for (size_t i = hop_at_[u].first; i < hop_at_[u].second; ++i)
          if (is_open(all_hops_[i])) open += all_hops_[i].fraction * open_[all_hops_[i].next];
        open_[u] = open;
        last_nodes_.push_back(u);
      }
  for (int k = top; k > 0; --k)
    for (topo::NodeId u : levels_[k]) {
      const size_t begin = carried_.size();
      if (open_[u] > 0)
        for (size_t i = hop_at_[u].first; i < hop_at_[u].second; ++i) {
          const Hop& h = all_hops_[i];
          if (!is_open(h)) continue;
          const double share = traffic_[u] * h.fraction * (closed ? open_[h.next] / open_[u] : 1.0);
          carried_.push_back({h.edge, h.next, share});
          traffic_[h.next] += share;
        }
      visits_.push_back({u, begin, carried_.size()});
    }
  for (int k = 0; k <= top; ++k) {
    for (topo::NodeId v : levels_[k]) traffic_[v] = 0, seen_[v] = 0;
    levels_[k].clear();
  }
}

namespace {
constexpr uint32_t kNotSwitch = UINT32_MAX;
}

struct AdaptiveRouter::ToDestination {
  std::vector<int32_t> dist;  // by switch index: hops to the destination switch, -1 unreachable
  std::vector<double> paths;  // by switch index: number of shortest paths to it
};

AdaptiveRouter::AdaptiveRouter(const topo::Fabric& fabric, const CableIndex& cables)
    : fabric_(fabric), cables_(cables), switch_index_(fabric.size(), kNotSwitch) {
  uint32_t switches = 0;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    if (fabric.node(n).is_switch()) switch_index_[n] = switches++;
  adj_.resize(switches);
  towards_.resize(switches);
  for (EdgeId e = 0; e < cables.size(); ++e) {
    const Edge& ed = cables.edge(e);
    if (switch_index_[ed.from.node] != kNotSwitch && switch_index_[ed.to.node] != kNotSwitch)
      adj_[switch_index_[ed.from.node]].push_back({e, ed.to.node, switch_index_[ed.to.node]});
  }
}

AdaptiveRouter::~AdaptiveRouter() = default;

const AdaptiveRouter::ToDestination& AdaptiveRouter::towards(topo::NodeId d) const {
  const uint32_t di = switch_index_[d];
  if (towards_[di]) return *towards_[di];
  auto td = std::make_unique<ToDestination>();
  td->dist.assign(adj_.size(), -1);
  td->paths.assign(adj_.size(), 0.0);
  // Links are symmetric, so BFS over outgoing edges from d gives distances towards d.
  std::vector<topo::NodeId> order{d};
  td->dist[di] = 0;
  td->paths[di] = 1;
  for (size_t i = 0; i < order.size(); ++i) {
    const uint32_t u = switch_index_[order[i]];
    for (const Link& l : adj_[u]) {
      const uint32_t vi = l.next_index;
      if (td->dist[vi] < 0) {
        td->dist[vi] = td->dist[u] + 1;
        order.push_back(l.next);
      }
      // Each parallel cable is a distinct path.
      if (td->dist[vi] == td->dist[u] + 1) td->paths[vi] += td->paths[u];
    }
  }
  towards_[di] = std::move(td);
  return *towards_[di];
}

int AdaptiveRouter::split_hops(topo::NodeId at, topo::NodeId to, std::vector<Hop>& out) const {
  // Each node splits what reaches it over its next hops in proportion to their path counts.
  out.clear();
  const ToDestination& td = towards(to);
  const uint32_t ai = switch_index_[at];
  const int d = td.dist[ai];
  if (d <= 0) return d;
  for (const Link& l : adj_[ai])
    if (td.dist[l.next_index] == d - 1) out.push_back({l.edge, l.next, td.paths[l.next_index] / td.paths[ai]});
  return d;
}

void AdaptiveRouter::route_split(topo::PortEnd src, topo::PortEnd dst, SplitRoute& out) const {
  if (!cables_.has_out_edge(src)) throw RoutingError(fabric_.port_name(src) + " is not cabled");
  if (!cables_.has_out_edge(dst)) throw RoutingError(fabric_.port_name(dst) + " is not cabled");
  EdgeId first = cables_.out_edge(src);
  EdgeId last = cables_.reverse(cables_.out_edge(dst));
  topo::NodeId s = cables_.edge(first).to.node;
  topo::NodeId d = cables_.edge(last).from.node;
  out.edges.clear();
  out.edges.emplace_back(first, 1.0);
  out.edges.emplace_back(last, 1.0);
  out.from = out.to = SplitRoute::kNone;
  if (s == d) return;
  if (switch_index_[s] == kNotSwitch || switch_index_[d] == kNotSwitch || towards(d).dist[switch_index_[s]] < 0)
    throw RoutingError("no path from " + fabric_.node(s).name + " to " + fabric_.node(d).name);
  out.from = s;
  out.to = d;
}

void AdaptiveRouter::route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const {
  SplitRoute r;
  route_split(src, dst, r);
  out.push_back(r.edges.front());
  if (r.split()) {
    if (last_pair_ != std::pair{r.from, r.to}) {
      spread_.spread(*this, r.to, {{r.from, 1.0}});
      last_split_.clear();
      for (const auto& c : spread_.carried()) last_split_.emplace_back(c.edge, c.gbps);
      last_pair_ = {r.from, r.to};
    }
    out.insert(out.end(), last_split_.begin(), last_split_.end());
  }
  out.push_back(r.edges.back());
}

}  // namespace ibburn::routing
