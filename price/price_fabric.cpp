#include "price/price_fabric.h"

#include <algorithm>
#include <map>

namespace ibburn::price {

namespace {

// "host001 mlx5_0" -> ("host001", "mlx5_0"); a second port is "mlx5_0:2".
std::pair<std::string, std::string> host_and_rail(const topo::Node& node, int port) {
  const std::string& d = node.description.empty() ? node.name : node.description;
  const auto space = d.find(' ');
  std::string host = d.substr(0, space);
  std::string rail = space == std::string::npos ? "hca" : d.substr(space + 1);
  if (port > 1) rail += ":" + std::to_string(port);
  return {host, rail};
}

}  // namespace

PriceFabric::PriceFabric(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
                         bool adaptive)
    : fabric_(fabric), cables_(cables), router_(router), adaptive_(adaptive) {
  const size_t nn = fabric.size(), ne = cables.size();
  tier_ = fabric.tiers();

  // Hosts and rails.
  std::map<std::string, size_t> rail_index;
  struct Seen {
    HostId host;
    std::string rail;
    topo::PortEnd port;
  };
  std::vector<Seen> seen;
  for (topo::NodeId n = 0; n < nn; ++n) {
    const topo::Node& node = fabric.node(n);
    if (!node.is_ca()) continue;
    for (int p = 1; p <= node.num_ports; ++p) {
      const topo::PortEnd port{n, p};
      if (!cables.has_out_edge(port)) continue;
      auto [host, rail] = host_and_rail(node, p);
      auto [it, added] = host_index_.emplace(host, static_cast<HostId>(hosts_.size()));
      if (added) hosts_.push_back({host, {}, topo::kNoNode});
      rail_index.emplace(rail, 0);
      seen.push_back({it->second, rail, port});
    }
  }
  for (auto& [rail, index] : rail_index) index = rails_.size(), rails_.push_back(rail);
  for (auto& h : hosts_) h.rails.assign(rails_.size(), topo::PortEnd{});
  host_of_edge_.assign(ne, UINT32_MAX);
  host_up_.assign(ne, 0);
  for (const auto& s : seen) {
    hosts_[s.host].rails[rail_index[s.rail]] = s.port;
    const routing::EdgeId up = cables.out_edge(s.port);
    host_of_edge_[up] = host_of_edge_[cables.reverse(up)] = s.host;
    host_up_[up] = 1;
  }
  for (auto& h : hosts_) {
    std::map<topo::NodeId, int> count;
    topo::NodeId first = topo::kNoNode;
    for (const auto& p : h.rails) {
      if (!p.valid()) continue;
      const topo::NodeId leaf = cables.edge(cables.out_edge(p)).to.node;
      if (first == topo::kNoNode) first = leaf;
      ++count[leaf];
    }
    h.leaf = first;
    for (const auto& [leaf, c] : count)
      if (c > count[h.leaf]) h.leaf = leaf;
  }

  // Groups: up cables by the switch they leave, down cables by the switch they enter.
  group_.assign(ne, kNoGroup);
  std::map<std::pair<topo::NodeId, int>, GroupId> by_key;
  for (routing::EdgeId e = 0; e < ne; ++e) {
    if (host_of_edge_[e] != UINT32_MAX) continue;
    const auto& edge = cables.edge(e);
    const int ta = tier_[edge.from.node], tb = tier_[edge.to.node];
    std::pair<topo::NodeId, int> key = tb > ta   ? std::pair{edge.from.node, 1}
                                       : tb < ta ? std::pair{edge.to.node, -1}
                                                 : std::pair{static_cast<topo::NodeId>(e), 0};
    if (tb == ta) key.first = static_cast<topo::NodeId>(nn + e);  // a cable within a tier is its own group
    auto [it, added] = by_key.emplace(key, static_cast<GroupId>(groups_.size()));
    if (added) groups_.emplace_back();
    group_[e] = it->second;
    groups_[it->second].push_back(e);
  }
}

routing::EdgeId PriceFabric::host_edge(HostId h, size_t rail, bool up) const {
  const topo::PortEnd p = hosts_[h].rails[rail];
  if (!p.valid()) return kNoEdge;
  const routing::EdgeId e = cables_.out_edge(p);
  return up ? e : cables_.reverse(e);
}

std::optional<HostId> PriceFabric::find_host(const std::string& name) const {
  const auto it = host_index_.find(name);
  return it == host_index_.end() ? std::nullopt : std::optional<HostId>(it->second);
}

}  // namespace ibburn::price
