#include "routing/cable_index.h"

#include <algorithm>
#include <stdexcept>

namespace ibburn::routing {

CableIndex::CableIndex(const topo::Fabric& fabric, double default_gbps) {
  first_slot_.reserve(fabric.size() + 1);
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    first_slot_.push_back(by_slot_.size());
    by_slot_.resize(by_slot_.size() + fabric.node(n).ports.size(), kNoEdge);
  }
  first_slot_.push_back(by_slot_.size());
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    for (const topo::Port& p : fabric.node(n).ports) {
      if (!p.linked()) continue;
      double cap = p.active.known() ? p.active.data_gbps() : default_gbps;
      const topo::Port& peer = fabric.port(p.remote);
      // A link runs at the rate both ends trained to; trust the lower if they disagree.
      if (peer.active.known()) cap = std::min(cap, peer.active.data_gbps());
      topo::PortEnd from{n, p.number};
      by_slot_[slot(from)] = static_cast<EdgeId>(edges_.size());
      edges_.push_back({from, p.remote, cap});
    }
  }
}

size_t CableIndex::slot(topo::PortEnd p) const {
  if (p.node >= first_slot_.size() - 1 || p.port < 0) return by_slot_.size();
  size_t s = first_slot_[p.node] + static_cast<size_t>(p.port);
  return s < first_slot_[p.node + 1] ? s : by_slot_.size();
}

bool CableIndex::has_out_edge(topo::PortEnd from) const {
  size_t s = slot(from);
  return s < by_slot_.size() && by_slot_[s] != kNoEdge;
}

EdgeId CableIndex::out_edge(topo::PortEnd from) const {
  if (!has_out_edge(from)) throw std::out_of_range("port is not linked");
  return by_slot_[slot(from)];
}

std::string CableIndex::describe(const topo::Fabric& fabric, EdgeId e) const {
  return fabric.port_name(edges_[e].from) + " -> " + fabric.port_name(edges_[e].to);
}

}  // namespace ibburn::routing
