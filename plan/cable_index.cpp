#include "plan/cable_index.h"

#include <algorithm>
#include <stdexcept>

namespace ibburn::plan {

CableIndex::CableIndex(const topo::Fabric& fabric, double default_gbps) {
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    for (const topo::Port& p : fabric.node(n).ports) {
      if (!p.linked()) continue;
      double cap = p.active.known() ? p.active.data_gbps() : default_gbps;
      const topo::Port& peer = fabric.port(p.remote);
      // A link runs at the rate both ends trained to; trust the lower if they disagree.
      if (peer.active.known()) cap = std::min(cap, peer.active.data_gbps());
      topo::PortEnd from{n, p.number};
      by_port_.emplace(key(from), static_cast<EdgeId>(edges_.size()));
      edges_.push_back({from, p.remote, cap});
    }
  }
}

bool CableIndex::has_out_edge(topo::PortEnd from) const { return by_port_.count(key(from)) != 0; }

EdgeId CableIndex::out_edge(topo::PortEnd from) const {
  auto it = by_port_.find(key(from));
  if (it == by_port_.end()) throw std::out_of_range("port is not linked");
  return it->second;
}

std::string CableIndex::describe(const topo::Fabric& fabric, EdgeId e) const {
  return fabric.port_name(edges_[e].from) + " -> " + fabric.port_name(edges_[e].to);
}

}  // namespace ibburn::plan
