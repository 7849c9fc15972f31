#include "topo/directed_route.h"

#include <cstring>
#include <deque>
#include <vector>

#include "topo/smp_fabric.h"

namespace ibburn::topo {

DirectedRoute extend(const DirectedRoute& r, int port) {
  DirectedRoute out = r;
  out.port[++out.hops] = static_cast<uint8_t>(port);
  return out;
}

MadRequest directed_smp_get(uint16_t attr, uint32_t attr_mod, const DirectedRoute& route) {
  MadRequest r;
  r.mgmt_class = kClassSmiDirected;
  r.method = kMethodGet;
  r.attr_id = attr;
  r.attr_mod = attr_mod;
  r.dr_hops = route.hops;
  // The initial path sits at MAD byte 128, i.e. 64 bytes into the data area.
  std::memcpy(r.data.data() + kSmpDataSize, route.port.data(), route.hops + 1);
  return r;
}

namespace {

bool usable(const PortKeySet& avoid, NodeId node, const Port& p) {
  return p.linked() && !avoid.contains({node, p.number}) && !avoid.contains({p.remote.node, p.remote.port});
}

// Breadth first from the local node to node `to`; a CA is left only by the local port, and
// only switches are passed through.
std::optional<DirectedRoute> route_to_node(const Fabric& fabric, PortEnd local, NodeId to, const PortKeySet& avoid) {
  std::vector<std::optional<DirectedRoute>> route(fabric.size());
  route[local.node] = DirectedRoute{};
  std::deque<NodeId> queue{local.node};
  while (!queue.empty()) {
    const NodeId n = queue.front();
    if (n == to) return route[n];
    queue.pop_front();
    const Node& node = fabric.node(n);
    if ((n != local.node && !node.is_switch()) || route[n]->hops >= kMaxDirectedHops) continue;
    for (const Port& p : node.ports) {
      if (p.number == 0 || !usable(avoid, n, p) || (!node.is_switch() && p.number != local.port)) continue;
      if (route[p.remote.node]) continue;
      route[p.remote.node] = extend(*route[n], p.number);
      queue.push_back(p.remote.node);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<DirectedRoute> route_around(const Fabric& fabric, PortEnd local, PortEnd to, const PortKeySet& avoid) {
  if (!local.valid() || local.node >= fabric.size() || !to.valid() || to.node >= fabric.size()) return std::nullopt;
  const Node& node = fabric.node(to.node);
  if (node.is_switch() || to == local) return route_to_node(fabric, local, to.node, avoid);
  const Port* p = node.port(to.port);
  if (!p || !usable(avoid, to.node, *p) || p->remote.node == to.node) return std::nullopt;
  // Through the switch at its far end, or straight out of the local port (two CAs cabled).
  if (!fabric.node(p->remote.node).is_switch() && p->remote != local) return std::nullopt;
  auto to_peer = route_to_node(fabric, local, p->remote.node, avoid);
  if (!to_peer || to_peer->hops >= kMaxDirectedHops) return std::nullopt;
  return extend(*to_peer, p->remote.port);
}

}  // namespace ibburn::topo
