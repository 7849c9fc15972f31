#include "topo/fabric_merge.h"

#include <unordered_map>

namespace ibburn::topo {

Fabric merge_fabrics(std::vector<Fabric> snapshots) {
  if (snapshots.size() == 1) return std::move(snapshots.front());
  Fabric out;
  std::vector<int> subnet_offset(snapshots.size(), 0);
  for (size_t s = 0; s < snapshots.size(); ++s) {
    subnet_offset[s] = static_cast<int>(out.subnets().size());
    for (const Subnet& sub : snapshots[s].subnets()) out.subnets().push_back(sub);
  }
  std::unordered_map<uint64_t, NodeId> merged_by_guid;  // from earlier snapshots only
  std::vector<std::vector<NodeId>> mapping(snapshots.size());
  for (size_t s = 0; s < snapshots.size(); ++s) {
    const Fabric& f = snapshots[s];
    std::vector<NodeId>& map = mapping[s];
    map.resize(f.size());
    std::unordered_map<uint64_t, NodeId> added_here;
    for (NodeId i = 0; i < f.size(); ++i) {
      const Node& n = f.node(i);
      if (auto it = merged_by_guid.find(n.guid); it != merged_by_guid.end()) {
        map[i] = it->second;
        // Ports this snapshot knows more about (e.g. a larger port list) grow the copy.
        Node& m = out.node(it->second);
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
      added_here.emplace(n.guid, id);
    }
    merged_by_guid.insert(added_here.begin(), added_here.end());
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
