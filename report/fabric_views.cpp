#include "report/fabric_views.h"

#include <algorithm>

#include "common/union_find.h"
#include "report/history.h"

namespace ibburn::report {

namespace {
int pod_count(const std::vector<int>& pods) {
  int n = 0;
  for (int p : pods) n = std::max(n, p + 1);
  return n;
}
}  // namespace

std::vector<int> node_pods(const topo::Fabric& fabric, const std::vector<int>& tiers) {
  const int top = tiers.empty() ? 0 : *std::max_element(tiers.begin(), tiers.end());
  std::vector<int> pod(fabric.size(), -1);
  auto in_pod = [&](topo::NodeId id) { return tiers[id] >= 1 && (top < 3 || tiers[id] < 3); };
  UnionFind parts(fabric.size());
  for (const auto& l : fabric.links())
    if (in_pod(l.a.node) && in_pod(l.b.node)) parts.join(l.a.node, l.b.node);
  // Pods numbered in order of their first leaf's name.
  std::map<uint32_t, std::string> first_leaf;
  for (topo::NodeId id = 0; id < fabric.size(); ++id) {
    if (!in_pod(id) || tiers[id] != 1) continue;
    auto [it, fresh] = first_leaf.try_emplace(parts.find(id), fabric.node(id).name);
    if (!fresh) it->second = std::min(it->second, fabric.node(id).name);
  }
  std::vector<std::pair<std::string, uint32_t>> order;
  for (const auto& [root, name] : first_leaf) order.emplace_back(name, root);
  std::sort(order.begin(), order.end());
  std::map<uint32_t, int> number;
  for (const auto& [name, root] : order) number.emplace(root, static_cast<int>(number.size()));
  for (topo::NodeId id = 0; id < fabric.size(); ++id) {
    if (!in_pod(id)) continue;
    auto it = number.find(parts.find(id));
    if (it != number.end()) pod[id] = top < 3 ? 0 : it->second;
  }
  for (topo::NodeId id = 0; id < fabric.size(); ++id)
    if (tiers[id] == 0)
      for (const auto& p : fabric.node(id).ports)
        if (p.linked() && pod[p.remote.node] >= 0) pod[id] = pod[p.remote.node];
  return pod;
}

FabricMap layout_overview(const topo::Fabric& fabric, const std::vector<int>& tiers, const std::vector<int>& pods,
                          const std::map<std::string, PortEvidence>& ports,
                          const std::vector<std::pair<PortRef, PortRef>>& missing) {
  constexpr double kSlot = 14, kPodGap = 30, kMargin = 60, kCoreY = kMargin, kCoreBus = kCoreY + 40,
                   kSpineY = kCoreY + 150, kPodBus = kSpineY + 40, kLeafY = kSpineY + 150, kHostY = kLeafY + 110;
  const int npods = pod_count(pods);
  auto by_name = [&](topo::NodeId a, topo::NodeId b) { return fabric.node(a).name < fabric.node(b).name; };
  std::vector<std::vector<topo::NodeId>> spines(npods), leaves(npods);
  std::vector<topo::NodeId> cores;
  for (topo::NodeId id = 0; id < fabric.size(); ++id) {
    if (tiers[id] >= 3) cores.push_back(id);
    if (pods[id] >= 0 && tiers[id] == 2) spines[pods[id]].push_back(id);
    if (pods[id] >= 0 && tiers[id] == 1) leaves[pods[id]].push_back(id);
  }
  std::sort(cores.begin(), cores.end(), by_name);
  FabricMap m;
  std::map<topo::NodeId, size_t> box_of;
  auto spread = [&](const std::vector<topo::NodeId>& ids, double x0, double w, double y) {
    for (size_t i = 0; i < ids.size(); ++i) {
      box_of[ids[i]] = m.boxes.size();
      m.boxes.push_back(
          switch_box(fabric.node(ids[i]).name, std::min(tiers[ids[i]], 3), x0 + w * (i + 0.5) / ids.size(), y));
    }
  };
  double cursor = kMargin;
  for (int p = 0; p < npods; ++p) {
    std::sort(spines[p].begin(), spines[p].end(), by_name);
    std::sort(leaves[p].begin(), leaves[p].end(), by_name);
    const double w = kSlot * std::max<size_t>({spines[p].size(), leaves[p].size(), 1});
    spread(spines[p], cursor, w, kSpineY);
    spread(leaves[p], cursor, w, kLeafY);
    MapFrame f;
    f.name = "pod " + std::to_string(p + 1), f.pod = p;
    f.x = cursor - 8, f.y = kSpineY - 22, f.w = w + 16, f.h = kHostY + 40 - kSpineY;
    m.frames.push_back(f);
    m.buses.push_back({cursor, cursor + w, kPodBus});
    cursor += w + kPodGap;
  }
  m.width = std::max(800.0, cursor - kPodGap + kMargin);
  m.height = kHostY + kMargin;
  spread(cores, kMargin, m.width - 2 * kMargin, kCoreY);
  if (!cores.empty()) m.buses.push_back({kMargin, m.width - kMargin, kCoreBus});

  // Each switch's cables to higher tiers on one line (a switch box shows all its own cables);
  // the HCAs of a leaf in one box.
  std::map<size_t, MapEdge> uplinks;
  auto cable = [&](topo::NodeId a, topo::NodeId b, const CableJudgement& j) {
    const bool a_lower = std::tie(tiers[a], fabric.node(a).name) <= std::tie(tiers[b], fabric.node(b).name);
    auto& e = uplinks[box_of[a_lower ? a : b]];
    e.a = e.b = box_of[a_lower ? a : b], ++e.cables;
    e.verdict = std::max(e.verdict, j.verdict), e.suspect |= j.suspect;
    e.bus_y = m.boxes[e.a].tier == 1 ? kPodBus : kCoreBus;
    for (auto end : {a, b}) {
      auto& sw = m.boxes[box_of[end]];
      sw.verdict = std::max(sw.verdict, j.verdict), sw.suspect |= j.suspect;
    }
  };
  for (const auto& l : fabric.links())
    if (box_of.count(l.a.node) && box_of.count(l.b.node))
      cable(l.a.node, l.b.node,
            judge_cable(ports, {fabric.node(l.a.node).name, l.a.port}, {fabric.node(l.b.node).name, l.b.port}));
  for (const auto& [a, b] : missing) {
    auto na = fabric.find_name(a.node), nb = fabric.find_name(b.node);
    if (na && nb && box_of.count(*na) && box_of.count(*nb)) cable(*na, *nb, {CableVerdict::Missing, false});
  }
  for (int p = 0; p < npods; ++p) {
    for (auto leaf : leaves[p]) {
      const MapBox agg = hcas_box(fabric, leaf, m.boxes[box_of[leaf]].x, kHostY, ports);
      if (agg.hcas == 0) continue;
      m.boxes.push_back(agg);
      m.edges.push_back(hcas_edge(box_of[leaf], m.boxes.size() - 1, agg));
    }
  }
  for (auto& [box, e] : uplinks) m.edges.push_back(e);
  for (const auto& e : m.edges)  // a leaf shows its HCAs' cables too
    if (m.boxes[e.b].hcas > 0)
      m.boxes[e.a].verdict = std::max(m.boxes[e.a].verdict, e.verdict), m.boxes[e.a].suspect |= e.suspect;
  // A pod's frame shows the worst inside it.
  for (const auto& b : m.boxes)
    for (auto& f : m.frames)
      if (b.tier < 3 && b.x >= f.x && b.x <= f.x + f.w) f.verdict = std::max(f.verdict, b.verdict);
  return m;
}

FabricPicture fabric_picture(const topo::Fabric& fabric, const std::map<std::string, PortEvidence>& ports,
                             const std::vector<std::pair<PortRef, PortRef>>& missing,
                             const std::map<std::string, std::string>& labels) {
  const auto tiers = node_tiers(fabric);
  const auto pods = node_pods(fabric, tiers);
  FabricPicture pic;
  std::vector<size_t> index(fabric.size(), SIZE_MAX);
  for (topo::NodeId id = 0; id < fabric.size(); ++id) {
    if (tiers[id] < 0) continue;
    index[id] = pic.nodes.size();
    pic.nodes.push_back({fabric.node(id).name, tiers[id], pods[id]});
  }
  auto add_cable = [&](size_t a, int ap, size_t b, int bp, bool planned) {
    if (pic.nodes[b].name < pic.nodes[a].name) std::swap(a, b), std::swap(ap, bp);
    const PortRef ra{pic.nodes[a].name, ap}, rb{pic.nodes[b].name, bp};
    PictureCable c;
    c.a = a, c.b = b, c.a_port = ap, c.b_port = bp;
    const auto j = judge_cable(ports, ra, rb);
    c.verdict = planned ? CableVerdict::Missing : j.verdict, c.suspect = j.suspect, c.planned_only = planned;
    for (const auto& end : {ra, rb}) {
      auto it = ports.find(port_key(end.node, end.port));
      if (it == ports.end()) continue;
      for (const auto& e : it->second.evidence)
        if (std::find(c.evidence.begin(), c.evidence.end(), e) == c.evidence.end()) c.evidence.push_back(e);
    }
    auto l = labels.find(cable_name(ra, rb));
    if (l != labels.end()) c.label = l->second;
    pic.cables.push_back(std::move(c));
  };
  for (const auto& l : fabric.links())
    if (index[l.a.node] != SIZE_MAX && index[l.b.node] != SIZE_MAX)
      add_cable(index[l.a.node], l.a.port, index[l.b.node], l.b.port, false);
  for (const auto& [a, b] : missing) {
    auto na = fabric.find_name(a.node), nb = fabric.find_name(b.node);
    if (na && nb && index[*na] != SIZE_MAX && index[*nb] != SIZE_MAX)
      add_cable(index[*na], a.port, index[*nb], b.port, true);
  }
  const int npods = pod_count(pods);
  for (int p = 0; p < std::max(npods, 1); ++p) pic.pods.push_back("pod " + std::to_string(p + 1));
  if (npods <= 1) {
    pic.fabric = layout_fabric(fabric, ports, missing);
    return pic;
  }
  pic.fabric = layout_overview(fabric, tiers, pods, ports, missing);
  for (int p = 0; p < npods; ++p) {
    // The pod's switches and the cores they reach.
    std::vector<bool> include(fabric.size(), false);
    for (topo::NodeId id = 0; id < fabric.size(); ++id) {
      if (pods[id] != p || tiers[id] < 1) continue;
      include[id] = true;
      for (const auto& port : fabric.node(id).ports)
        if (port.linked() && tiers[port.remote.node] >= 3) include[port.remote.node] = true;
    }
    pic.pod_maps.push_back(layout_fabric(fabric, ports, missing, include));
  }
  return pic;
}

}  // namespace ibburn::report
