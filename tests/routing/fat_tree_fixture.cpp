#include "tests/routing/fat_tree_fixture.h"

#include <string>

namespace ibburn::routing::fixture {

FatTree make_fat_tree(int leaves, int hosts_per_leaf, int spines, int cables) {
  using namespace topo;
  FatTree t;
  const LinkRate rate{Width::X4, Speed::HDR};
  const int up = spines * cables;
  uint16_t next_lid = 1;
  for (int l = 0; l < leaves; ++l) {
    NodeId n = t.fabric.add_node(NodeType::Switch, 0x1000 + l, "leaf" + std::to_string(l), hosts_per_leaf + up);
    t.fabric.node(n).ports[0].lid = next_lid++;
    t.leaves.push_back(n);
  }
  for (int s = 0; s < spines; ++s) {
    NodeId n = t.fabric.add_node(NodeType::Switch, 0x2000 + s, "spine" + std::to_string(s), leaves * cables);
    t.fabric.node(n).ports[0].lid = next_lid++;
    t.spines.push_back(n);
  }
  auto link = [&](PortEnd a, PortEnd b) {
    t.fabric.connect(a, b);
    t.fabric.port(a).active = t.fabric.port(b).active = rate;
  };
  for (int l = 0; l < leaves; ++l) {
    for (int h = 0; h < hosts_per_leaf; ++h) {
      int idx = l * hosts_per_leaf + h;
      NodeId n = t.fabric.add_node(NodeType::CA, 0x3000 + idx, "host" + std::to_string(idx) + " mlx5_0", 1);
      t.fabric.node(n).ports[1].lid = next_lid++;
      t.fabric.node(n).ports[1].guid = 0x4000 + idx;
      t.hosts.push_back(n);
      link({n, 1}, {t.leaves[l], h + 1});
    }
    for (int s = 0; s < spines; ++s)
      for (int c = 0; c < cables; ++c)
        link({t.leaves[l], hosts_per_leaf + 1 + s * cables + c}, {t.spines[s], l * cables + c + 1});
  }
  // D-mod-K: leaves send host h up through uplink (h mod up); spines send down to the
  // leaf of h through cable (h / up) mod cables.
  for (int l = 0; l < leaves; ++l) {
    std::vector<uint8_t> lft(next_lid, ForwardingTables::kNoRoute);
    for (size_t h = 0; h < t.hosts.size(); ++h) {
      uint16_t lid = t.fabric.node(t.hosts[h]).ports[1].lid;
      int hl = static_cast<int>(h) / hosts_per_leaf;
      lft[lid] =
          hl == l ? static_cast<uint8_t>(h % hosts_per_leaf + 1) : static_cast<uint8_t>(hosts_per_leaf + 1 + h % up);
    }
    t.lfts.by_switch_guid[t.fabric.node(t.leaves[l]).guid] = lft;
  }
  for (int s = 0; s < spines; ++s) {
    std::vector<uint8_t> lft(next_lid, ForwardingTables::kNoRoute);
    for (size_t h = 0; h < t.hosts.size(); ++h) {
      uint16_t lid = t.fabric.node(t.hosts[h]).ports[1].lid;
      int hl = static_cast<int>(h) / hosts_per_leaf;
      lft[lid] = static_cast<uint8_t>(hl * cables + (h / up) % cables + 1);
    }
    t.lfts.by_switch_guid[t.fabric.node(t.spines[s]).guid] = lft;
  }
  return t;
}

}  // namespace ibburn::routing::fixture
