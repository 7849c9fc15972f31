#include "report/fabric_map.h"

#include <algorithm>
#include <deque>

#include "common/error.h"

namespace ibburn::report {

const char* to_string(CableVerdict v) {
  static const char* names[] = {"ok", "slow", "errors", "flapping", "miswired", "missing"};
  return names[static_cast<int>(v)];
}

const char* colour(CableVerdict v) {
  static const char* colours[] = {"#2e9e44", "#e3b505", "#e8710a", "#a142f4", "#d93025", "#5f6368"};
  return colours[static_cast<int>(v)];
}

namespace {
std::string port_key(const std::string& node, int port) { return node + "[" + std::to_string(port) + "]"; }

CableVerdict verdict_of_kind(FindingKind kind) {
  switch (info(kind).map) {
    case MapMark::Missing: return CableVerdict::Missing;
    case MapMark::Miswired: return CableVerdict::Miswired;
    case MapMark::Flapping: return CableVerdict::Flapping;
    case MapMark::Slow: return CableVerdict::Slow;
    case MapMark::Errors: break;
  }
  return CableVerdict::Errors;
}

void worsen(CableVerdict& v, CableVerdict w) { v = std::max(v, w); }
}  // namespace

std::map<std::string, CableVerdict> port_verdicts(const RunData& run) {
  std::map<std::string, CableVerdict> out;
  auto mark = [&](const std::vector<Finding>& fs) {
    for (const auto& f : fs)
      if (f.severity >= Severity::Warning)
        for (const auto& p : f.ports)
          if (p.port > 0) worsen(out[port_key(p.node, p.port)], verdict_of_kind(f.kind));
  };
  if (run.topo) mark(*run.topo);
  mark(counters_findings(run));
  if (run.burn) {
    // Cables the burn's localisation named with confidence ("node[port]" at both ends).
    for (const auto& x : run.burn->suspects.value_or(std::vector<burn::SuspectRecord>{})) {
      if (x.confidence < 0.75) continue;
      for (const std::string& name : {x.from, x.to}) {
        const auto open = name.rfind('[');
        if (open == std::string::npos || name.back() != ']') continue;
        worsen(out[port_key(name.substr(0, open), std::atoi(name.c_str() + open + 1))], CableVerdict::Slow);
      }
    }
    for (const auto& e : run.burn->endpoints) {
      const std::string ep = e.endpoint.value_or("");
      const auto colon = ep.find(':');
      if (e.verdict == burn::Verdict::Pass || e.verdict == burn::Verdict::Unjudged || colon == std::string::npos)
        continue;
      const int port = std::atoi(ep.c_str() + colon + 1);
      worsen(out[port_key(e.host.value_or("") + " " + ep.substr(0, colon), port)],
             e.verdict == burn::Verdict::Failed ? CableVerdict::Errors : CableVerdict::Slow);
    }
  }
  return out;
}

std::vector<std::pair<PortRef, PortRef>> missing_cables(const RunData& run) {
  std::vector<std::pair<PortRef, PortRef>> out;
  if (run.topo)
    for (const auto& f : *run.topo)
      if (f.kind == FindingKind::Missing && f.ports.size() == 2) out.emplace_back(f.ports[0], f.ports[1]);
  return out;
}

std::vector<int> node_tiers(const topo::Fabric& fabric) {
  std::vector<int> tier(fabric.size(), -1);
  std::deque<topo::NodeId> queue;
  for (topo::NodeId id = 0; id < fabric.size(); ++id)
    if (fabric.node(id).is_ca()) tier[id] = 0, queue.push_back(id);
  while (!queue.empty()) {
    const auto id = queue.front();
    queue.pop_front();
    for (const auto& p : fabric.node(id).ports)
      if (p.linked() && tier[p.remote.node] < 0) tier[p.remote.node] = tier[id] + 1, queue.push_back(p.remote.node);
  }
  return tier;
}

FabricMap layout_fabric(const topo::Fabric& fabric, const std::map<std::string, CableVerdict>& ports,
                        const std::vector<std::pair<PortRef, PortRef>>& missing) {
  constexpr double kRow = 170, kMargin = 60, kMinGap = 14;
  const auto tiers = node_tiers(fabric);
  auto verdict = [&](const std::string& node, int port) {
    auto it = ports.find(port_key(node, port));
    return it == ports.end() ? CableVerdict::Ok : it->second;
  };
  FabricMap m;
  // Rows: core (top) .. leaf; one aggregate box per leaf below it.
  int top = 1;
  for (int t : tiers) top = std::max(top, std::min(t, 3));
  std::map<topo::NodeId, size_t> box_of;
  std::vector<std::vector<topo::NodeId>> rows(top + 1);
  for (topo::NodeId id = 0; id < fabric.size(); ++id)
    if (tiers[id] >= 1) rows[std::min(tiers[id], 3)].push_back(id);
  size_t widest = 1;
  for (auto& r : rows) {
    std::sort(r.begin(), r.end(), [&](auto a, auto b) { return fabric.node(a).name < fabric.node(b).name; });
    widest = std::max(widest, r.size());
  }
  m.width = std::max(800.0, 2 * kMargin + widest * kMinGap);
  m.height = 2 * kMargin + top * kRow;
  auto place = [&](const std::vector<std::string>& names, int tier, double y, std::vector<size_t>* ids) {
    const double gap = (m.width - 2 * kMargin) / std::max<size_t>(names.size(), 1);
    for (size_t i = 0; i < names.size(); ++i) {
      ids->push_back(m.boxes.size());
      m.boxes.push_back({names[i], tier, kMargin + gap * (i + 0.5), y, 0, CableVerdict::Ok});
    }
  };
  for (int t = top; t >= 1; --t) {
    std::vector<std::string> names;
    for (auto id : rows[t]) names.push_back(fabric.node(id).name);
    std::vector<size_t> ids;
    place(names, t, kMargin + (top - t) * kRow, &ids);
    for (size_t i = 0; i < ids.size(); ++i) box_of[rows[t][i]] = ids[i];
  }
  // HCAs per leaf, aggregated into one box under the leaf.
  std::map<std::pair<size_t, size_t>, MapEdge> bundles;
  for (auto leaf : rows[1]) {
    const auto& ln = fabric.node(leaf);
    MapBox agg{ln.name + " HCAs", 0, m.boxes[box_of[leaf]].x, m.height - kMargin, 0, CableVerdict::Ok};
    for (const auto& p : ln.ports) {
      if (!p.linked() || !fabric.node(p.remote.node).is_ca()) continue;
      const auto& hca = fabric.node(p.remote.node);
      HcaCable c{port_key(hca.name, p.remote.port), port_key(ln.name, p.number),
                 std::max(verdict(hca.name, p.remote.port), verdict(ln.name, p.number))};
      ++agg.hcas;
      worsen(agg.verdict, c.verdict);
      m.hcas_by_leaf[ln.name].push_back(c);
    }
    if (agg.hcas == 0) continue;
    m.boxes.push_back(agg);
    bundles[{box_of[leaf], m.boxes.size() - 1}] = {box_of[leaf], m.boxes.size() - 1, 1, agg.verdict, false};
  }
  for (const auto& l : fabric.links()) {
    auto a = box_of.find(l.a.node), b = box_of.find(l.b.node);
    if (a == box_of.end() || b == box_of.end()) continue;  // HCA cables are in the aggregates
    auto key = std::minmax(a->second, b->second);
    auto& e = bundles[{key.first, key.second}];
    e.a = key.first, e.b = key.second, ++e.cables;
    worsen(e.verdict,
           std::max(verdict(fabric.node(l.a.node).name, l.a.port), verdict(fabric.node(l.b.node).name, l.b.port)));
  }
  for (const auto& [a, b] : missing) {
    auto na = fabric.find_name(a.node), nb = fabric.find_name(b.node);
    if (!na || !nb || !box_of.count(*na) || !box_of.count(*nb)) continue;
    auto key = std::minmax(box_of[*na], box_of[*nb]);
    auto& e = bundles[{key.first, key.second}];
    if (e.cables == 0) e.planned_only = true;
    e.a = key.first, e.b = key.second, ++e.cables, e.verdict = CableVerdict::Missing;
  }
  for (auto& [k, e] : bundles) m.edges.push_back(e);
  return m;
}

}  // namespace ibburn::report
