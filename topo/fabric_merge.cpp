#include "topo/fabric_merge.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace ibburn::topo {
namespace {

// The node of earlier snapshots that `n` is: same GUID, type and description. A node with
// the GUID of another but not its kind or name is a second node sharing it (duplicate_guid),
// not the first seen again.
std::optional<NodeId> same_node(const Fabric& out, const std::unordered_map<uint64_t, std::vector<NodeId>>& by_guid,
                                const Node& n) {
  const auto it = by_guid.find(n.guid);
  if (it == by_guid.end()) return std::nullopt;
  for (const NodeId id : it->second) {
    const Node& m = out.node(id);
    if (m.type == n.type && m.description == n.description) return id;
  }
  return std::nullopt;
}

}  // namespace

Fabric merge_fabrics(std::vector<Fabric> snapshots) {
  if (snapshots.size() == 1) return std::move(snapshots.front());
  Fabric out;
  std::vector<int> subnet_offset(snapshots.size(), 0);
  for (size_t s = 0; s < snapshots.size(); ++s) {
    subnet_offset[s] = static_cast<int>(out.subnets().size());
    for (const Subnet& sub : snapshots[s].subnets()) out.subnets().push_back(sub);
  }
  // From earlier snapshots only; several where nodes share a GUID.
  std::unordered_map<uint64_t, std::vector<NodeId>> merged_by_guid;
  std::vector<std::vector<NodeId>> mapping(snapshots.size());
  for (size_t s = 0; s < snapshots.size(); ++s) {
    const Fabric& f = snapshots[s];
    std::vector<NodeId>& map = mapping[s];
    map.resize(f.size());
    std::unordered_map<uint64_t, std::vector<NodeId>> added_here;
    for (NodeId i = 0; i < f.size(); ++i) {
      const Node& n = f.node(i);
      if (const auto same = same_node(out, merged_by_guid, n)) {
        map[i] = *same;
        // Ports this snapshot knows more about (e.g. a larger port list) grow the copy.
        Node& m = out.node(*same);
        if (n.ports.size() > m.ports.size()) {
          for (size_t p = m.ports.size(); p < n.ports.size(); ++p) {
            m.ports.push_back(n.ports[p]);
            m.ports.back().remote = {};
          }
          m.num_ports = std::max(m.num_ports, n.num_ports);
        }
        continue;
      }
      NodeId id = out.add_node(n.type, n.guid, n.description, n.num_ports);
      Node& m = out.node(id);
      m = n;
      if (m.subnet >= 0) m.subnet += subnet_offset[s];
      for (Port& p : m.ports) p.remote = {};
      map[i] = id;
      added_here[n.guid].push_back(id);
    }
    for (auto& [guid, ids] : added_here) {
      std::vector<NodeId>& known = merged_by_guid[guid];
      known.insert(known.end(), ids.begin(), ids.end());
    }
  }
  for (size_t s = 0; s < snapshots.size(); ++s) {
    const Fabric& f = snapshots[s];
    for (const Link& l : f.links()) {
      PortEnd a{mapping[s][l.a.node], l.a.port}, b{mapping[s][l.b.node], l.b.port};
      const Node& na = out.node(a.node);
      const Node& nb = out.node(b.node);
      bool a_busy = a.port < static_cast<int>(na.ports.size()) && na.ports[a.port].linked();
      bool b_busy = b.port < static_cast<int>(nb.ports.size()) && nb.ports[b.port].linked();
      if (a_busy || b_busy) continue;  // already linked (same link, or an earlier snapshot wins)
      out.connect(a, b);
    }
  }
  out.reindex_names();
  return out;
}

}  // namespace ibburn::topo
