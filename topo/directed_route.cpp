#include "topo/directed_route.h"

#include <infiniband/mad.h>

#include <cstring>
#include <deque>
#include <utility>
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

RoutesAround::RoutesAround(const Fabric& fabric, PortEnd local, PortKeySet avoid)
    : fabric_(fabric), local_(local), avoid_(std::move(avoid)) {
  if (!local_.valid() || local_.node >= fabric_.size()) return;
  route_.resize(fabric_.size());
  // Breadth first from the local node; a CA is left only by the local port, and only switches
  // are passed through.
  route_[local_.node] = DirectedRoute{};
  std::deque<NodeId> queue{local_.node};
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    const Node& node = fabric_.node(n);
    if ((n != local_.node && !node.is_switch()) || route_[n]->hops >= kMaxDirectedHops) continue;
    for (const Port& p : node.ports) {
      if (p.number == 0 || !usable(n, p) || (!node.is_switch() && p.number != local_.port)) continue;
      if (route_[p.remote.node]) continue;
      route_[p.remote.node] = extend(*route_[n], p.number);
      queue.push_back(p.remote.node);
    }
  }
}

bool RoutesAround::usable(NodeId node, const Port& p) const {
  return p.linked() && !avoid_.contains({node, p.number}) && !avoid_.contains({p.remote.node, p.remote.port});
}

std::optional<DirectedRoute> RoutesAround::to(PortEnd to) const {
  if (route_.empty() || !to.valid() || to.node >= fabric_.size()) return std::nullopt;
  const Node& node = fabric_.node(to.node);
  if (node.is_switch() || to == local_) return route_[to.node];
  const Port* p = node.port(to.port);
  if (!p || !usable(to.node, *p) || p->remote.node == to.node) return std::nullopt;
  // Through the switch at its far end, or straight out of the local port (two CAs cabled).
  if (!fabric_.node(p->remote.node).is_switch() && p->remote != local_) return std::nullopt;
  const auto& to_peer = route_[p->remote.node];
  if (!to_peer || to_peer->hops >= kMaxDirectedHops) return std::nullopt;
  return extend(*to_peer, p->remote.port);
}

std::optional<PortEnd> local_port(const Fabric& fabric, MadWindow& window) {
  const MadResult r = window.run({directed_smp_get(kAttrNodeInfo, 0, DirectedRoute{})}).front();
  if (!r.ok()) return std::nullopt;
  uint8_t* info = const_cast<uint8_t*>(r.data.data());
  const auto node = fabric.find_guid(mad_get_field64(info, 0, IB_NODE_GUID_F));
  if (!node) return std::nullopt;
  const bool is_switch = mad_get_field(info, 0, IB_NODE_TYPE_F) == IB_NODE_SWITCH;
  return PortEnd{*node, is_switch ? 0 : static_cast<int>(mad_get_field(info, 0, IB_NODE_LOCAL_PORT_F))};
}

}  // namespace ibburn::topo
