#include "topo/link_ledger.h"

#include "common/error.h"

namespace ibburn::topo {

void LinkLedger::link(Fabric& fabric, PortEnd a, PortEnd b, int line) {
  if (a == b) throw InputError(origin_, line, "port " + namer_(a) + " is linked to itself");
  const Port& pa = fabric.port(a);
  const Port& pb = fabric.port(b);
  if (pa.remote == b && pb.remote == a) return;  // the same link seen from its other end
  for (auto [self, peer] : {std::pair{a, b}, std::pair{b, a}}) {
    const Port& p = fabric.port(self);
    if (!p.linked() || p.remote == peer) continue;
    throw InputError(origin_, line,
                     "port " + namer_(self) + " is linked to " + namer_(p.remote) + " by line " +
                         std::to_string(line_of_[key(self)]) + ", but this line links it to " +
                         namer_(peer));
  }
  fabric.connect(a, b);
  line_of_[key(a)] = line;
  line_of_[key(b)] = line;
}

}  // namespace ibburn::topo
