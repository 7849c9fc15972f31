#include "topo/smp_identity.h"

namespace ibburn::topo {

KnownNode known_node(const SmpFabric& fabric, const std::vector<int>& same_guid, int type, int num_ports,
                     int local_port, int from_node, int from_port) {
  for (const int id : same_guid) {
    const SmpNode& n = fabric.nodes[id];
    if (n.type != type || n.num_ports != num_ports || local_port > n.num_ports) continue;
    const SmpPort& port = n.ports[local_port];
    if (port.peer_node < 0 || (port.peer_node == from_node && port.peer_port == from_port)) return {id, true};
    if (port.peer_node != from_node && fabric.nodes[port.peer_node].guid == fabric.nodes[from_node].guid)
      return {id, false};
  }
  return {};
}

}  // namespace ibburn::topo
