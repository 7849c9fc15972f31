#include "route_check/lid_owners.h"

#include <algorithm>

namespace ibburn::route_check {

LidOwners lid_owners(const topo::Fabric& fabric) {
  LidOwners out;
  const auto hold = [&](uint16_t lid, topo::PortEnd port) {
    if (lid == 0) return;
    if (out.by_lid.size() <= lid) out.by_lid.resize(static_cast<size_t>(lid) + 1);
    out.by_lid[lid] = port;
  };
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    const topo::Node& node = fabric.node(n);
    if (node.is_switch()) {
      if (!node.ports.empty()) hold(node.ports[0].lid, {n, 0});
      continue;
    }
    for (const topo::Port& p : node.ports) {
      if (p.number == 0 || p.lid == 0) continue;
      const uint32_t count = 1U << std::min<uint8_t>(p.lmc, 7);
      for (uint32_t i = 0; i < count && p.lid + i <= 0xBFFF; ++i) {
        const auto lid = static_cast<uint16_t>(p.lid + i);
        hold(lid, {n, p.number});
        out.ca_lids.push_back(lid);
      }
    }
  }
  std::sort(out.ca_lids.begin(), out.ca_lids.end());
  out.ca_lids.erase(std::unique(out.ca_lids.begin(), out.ca_lids.end()), out.ca_lids.end());
  return out;
}

}  // namespace ibburn::route_check
