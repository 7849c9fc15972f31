#include "topo/link_ledger.h"

#include "common/error.h"

namespace ibburn::topo {

int& LinkLedger::line_of(PortEnd e) {
  if (e.node >= line_of_.size()) line_of_.resize(e.node + 1);
  std::vector<int>& lines = line_of_[e.node];
  if (static_cast<size_t>(e.port) >= lines.size()) lines.resize(static_cast<size_t>(e.port) + 1, 0);
  return lines[e.port];
}

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
                         std::to_string(line_of(self)) + ", but this line links it to " + namer_(peer));
  }
  fabric.connect(a, b);
  line_of(a) = line;
  line_of(b) = line;
}

}  // namespace ibburn::topo
