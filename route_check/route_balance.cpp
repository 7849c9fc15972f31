#include "route_check/route_balance.h"

#include <algorithm>
#include <limits>

namespace ibburn::route_check {

std::vector<uint32_t> destinations_by_edge(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                           const routing::ForwardingTables& lfts, const LidOwners& owners) {
  std::vector<uint32_t> out(cables.size(), 0);
  const auto tables = lfts.by_node(fabric);
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    if (!tables[n]) continue;
    const std::vector<uint8_t>& lft = *tables[n];
    for (uint16_t lid : owners.ca_lids) {
      if (lid >= lft.size()) break;
      const int port = lft[lid];
      if (port != routing::ForwardingTables::kNoRoute && port != 0 && cables.has_out_edge({n, port}))
        ++out[cables.out_edge({n, port})];
    }
  }
  return out;
}

std::vector<Imbalance> unbalanced_groups(const std::vector<routing::PortGroup>& groups,
                                         const std::vector<uint32_t>& by_edge, double ratio) {
  std::vector<Imbalance> out;
  for (const routing::PortGroup& g : groups) {
    Imbalance im{g.node, {}, 0, 0};
    uint32_t lo = std::numeric_limits<uint32_t>::max(), hi = 0;
    uint64_t sum = 0;
    for (routing::EdgeId e : g.edges) {
      im.ports.push_back({e, by_edge[e]});
      lo = std::min(lo, by_edge[e]);
      hi = std::max(hi, by_edge[e]);
      sum += by_edge[e];
    }
    if (hi == 0) continue;  // nothing routed through the group at all
    im.max_over_min = lo == 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(hi) / lo;
    if (im.max_over_min <= ratio) continue;
    im.mean_over_max = static_cast<double>(sum) / static_cast<double>(g.edges.size()) / hi;
    out.push_back(std::move(im));
  }
  return out;
}

}  // namespace ibburn::route_check
