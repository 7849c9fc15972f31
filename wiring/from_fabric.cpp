#include "wiring/from_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "common/error.h"
#include "common/guid.h"

namespace ibburn::wiring {
const std::string& name_of(const topo::Node& n) { return n.name.empty() ? n.description : n.name; }

Wiring wiring_from_fabric(const topo::Fabric& fabric, const std::string& origin) {
  Wiring w;
  w.origin = origin;
  std::unordered_map<std::string, topo::NodeId> owner;  // name -> first cabled node using it
  auto end_of = [&](topo::PortEnd e) {
    const topo::Node& n = fabric.node(e.node);
    const std::string& name = name_of(n);
    if (name.empty())
      throw Error(kExitInput, fmt::format("{}: node {} has no name or description", origin, Guid{n.guid}));
    auto [it, fresh] = owner.emplace(name, e.node);
    if (!fresh && it->second != e.node) {
      uint64_t g1 = fabric.node(it->second).guid, g2 = n.guid;
      throw Error(kExitInput, fmt::format("{}: nodes {} and {} are both named '{}': give a "
                                          "node-name-map so that the plan can tell them apart",
                                          origin, Guid{std::min(g1, g2)}, Guid{std::max(g1, g2)}, name));
    }
    return CableEnd{name, e.port};
  };
  for (const topo::Link& l : fabric.links()) {
    topo::PortEnd a = l.a, b = l.b;
    if (fabric.node(b.node).is_ca() && !fabric.node(a.node).is_ca()) std::swap(a, b);
    Cable c;
    c.a = end_of(a);
    c.b = end_of(b);
    const topo::LinkRate& ra = fabric.port(a).active;
    const topo::LinkRate& rb = fabric.port(b).active;
    if (ra.known())
      c.rate = ra;
    else if (rb.known())
      c.rate = rb;
    w.cables.push_back(std::move(c));
  }
  return w;
}

}  // namespace ibburn::wiring
