#pragma once
// Directed routes (IBA 14.2.2): an SMP that names the port it leaves each hop by, so it
// reaches a node whatever the subnet manager's forwarding tables say. Discovery walks the
// fabric with them (topo/dr_walker.h); the stage's port-state polls take one around a cable
// seen down when the LID route to a port crosses it (counters/sweep.h). Routes over the
// model are pure.
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::topo {

// The ports of a directed route from the local port: port[1..hops] (byte 0 unused).
struct DirectedRoute {
  uint8_t hops = 0;
  std::array<uint8_t, 64> port{};
};
inline constexpr int kMaxDirectedHops = 63;

// `r` one hop further, leaving by `port`.
DirectedRoute extend(const DirectedRoute& r, int port);

// A directed-route SMP Get of `attr` (modifier `attr_mod`) over `route`.
MadRequest directed_smp_get(uint16_t attr, uint32_t attr_mod, const DirectedRoute& route);

// The fabric's port this process's MADs leave from, by a directed-route NodeInfo of no hops
// (its node GUID, and for a CA its LocalPortNum): a switch's port 0, or a CA's port. None when
// it does not answer or its node is not in `fabric`.
std::optional<PortEnd> local_port(const Fabric& fabric, MadWindow& window);

// The shortest directed routes over the model's links from `local` (the port MADs leave from:
// a CA's port, or a switch's port 0), through switches only (directed routes do not cross CAs)
// and over no link with an end in `avoid` (ports seen down). One breadth-first walk serves
// every port asked: a poll asks all the ports behind a cable at once.
using PortKeySet = std::set<std::pair<NodeId, int>>;
class RoutesAround {
 public:
  RoutesAround(const Fabric& fabric, PortEnd local, PortKeySet avoid);
  // The route to port `to`: a switch's port is reached at its switch, a CA's over its own link
  // (a CA answers PortInfo for the port an SMP came in by). None when no such route exists or
  // it is longer than a directed route can be.
  std::optional<DirectedRoute> to(PortEnd to) const;

 private:
  bool usable(NodeId node, const Port& p) const;

  const Fabric& fabric_;
  PortEnd local_;
  PortKeySet avoid_;
  std::vector<std::optional<DirectedRoute>> route_;  // per node; none: not reached
};

}  // namespace ibburn::topo
