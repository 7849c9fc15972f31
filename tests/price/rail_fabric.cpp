#include "tests/price/rail_fabric.h"

#include <string>

namespace ibburn::price::fixture {

RailFabric make_rail_fabric(int rails, int leaves_per_rail, int hosts_per_leaf, int spines, int cables) {
  using namespace topo;
  RailFabric t;
  const LinkRate rate{Width::X4, Speed::NDR};
  const int up = spines * cables, leaves = rails * leaves_per_rail, hosts = leaves_per_rail * hosts_per_leaf;
  uint16_t lid = 1;
  uint64_t guid = 0x1000;
  t.leaves.resize(rails);
  for (int r = 0; r < rails; ++r)
    for (int l = 0; l < leaves_per_rail; ++l) {
      const NodeId n = t.fabric.add_node(NodeType::Switch, guid++,
                                         "rail" + std::to_string(r) + "-leaf" + std::to_string(l), hosts_per_leaf + up);
      t.fabric.node(n).ports[0].lid = lid++;
      t.leaves[r].push_back(n);
    }
  for (int s = 0; s < spines; ++s) {
    const NodeId n = t.fabric.add_node(NodeType::Switch, guid++, "spine" + std::to_string(s), leaves * cables);
    t.fabric.node(n).ports[0].lid = lid++;
    t.spines.push_back(n);
  }
  auto link = [&](PortEnd a, PortEnd b) {
    t.fabric.connect(a, b);
    t.fabric.port(a).active = t.fabric.port(b).active = rate;
  };
  t.hcas.resize(hosts);
  std::vector<std::pair<uint16_t, int>> dest;  // HCA LID, its leaf's index over all rails
  for (int h = 0; h < hosts; ++h)
    for (int r = 0; r < rails; ++r) {
      const std::string name = "host" + std::to_string(h) + " mlx5_" + std::to_string(r);
      const NodeId n = t.fabric.add_node(NodeType::CA, guid++, name, 1);
      t.fabric.node(n).ports[1].lid = lid;
      t.fabric.node(n).ports[1].guid = 0x900000 + guid;
      const int leaf = h / hosts_per_leaf;
      link({n, 1}, {t.leaves[r][leaf], h % hosts_per_leaf + 1});
      t.hcas[h].push_back(n);
      dest.emplace_back(lid++, r * leaves_per_rail + leaf);
    }
  for (int r = 0; r < rails; ++r)
    for (int l = 0; l < leaves_per_rail; ++l)
      for (int s = 0; s < spines; ++s)
        for (int c = 0; c < cables; ++c)
          link({t.leaves[r][l], hosts_per_leaf + 1 + s * cables + c},
               {t.spines[s], (r * leaves_per_rail + l) * cables + c + 1});
  // D-mod-K: a leaf sends destination d up through uplink (d mod up); a spine sends it down to
  // its leaf through cable (d / up) mod cables.
  for (int r = 0; r < rails; ++r)
    for (int l = 0; l < leaves_per_rail; ++l) {
      std::vector<uint8_t> lft(lid, routing::ForwardingTables::kNoRoute);
      const int me = r * leaves_per_rail + l;
      for (size_t d = 0; d < dest.size(); ++d) {
        const auto [dl, leaf] = dest[d];
        const int host = static_cast<int>(d) / rails;
        lft[dl] = leaf == me ? static_cast<uint8_t>(host % hosts_per_leaf + 1)
                             : static_cast<uint8_t>(hosts_per_leaf + 1 + static_cast<int>(d) % up);
      }
      t.lfts.by_switch_guid[t.fabric.node(t.leaves[r][l]).guid] = lft;
    }
  for (int s = 0; s < spines; ++s) {
    std::vector<uint8_t> lft(lid, routing::ForwardingTables::kNoRoute);
    for (size_t d = 0; d < dest.size(); ++d) {
      const auto [dl, leaf] = dest[d];
      lft[dl] = static_cast<uint8_t>(leaf * cables + (static_cast<int>(d) / up) % cables + 1);
    }
    t.lfts.by_switch_guid[t.fabric.node(t.spines[s]).guid] = lft;
  }
  return t;
}

}  // namespace ibburn::price::fixture
