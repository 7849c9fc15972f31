#include "report/fabric_map.h"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "common/error.h"
#include "common/finding_details.h"
#include "report/run_verdict.h"

namespace ibburn::report {

const char* to_string(CableVerdict v) {
  static const char* names[] = {"ok", "unloaded", "slow", "degraded", "errors", "flapping", "miswired", "missing"};
  return names[static_cast<int>(v)];
}

const char* label(CableVerdict v) {
  static const char* labels[] = {"ok",       "unloaded", "slow", "degraded", "errors under load", "down / flapping",
                                 "miswired", "missing"};
  return labels[static_cast<int>(v)];
}

const char* colour(CableVerdict v) {
  static const char* colours[] = {"#2e9e44", "#1a9fb5", "#e3b505", "#8d6e63",
                                  "#e8710a", "#a142f4", "#d93025", "#5f6368"};
  return colours[static_cast<int>(v)];
}

std::string port_key(const std::string& node, int port) { return node + "[" + std::to_string(port) + "]"; }

void CableJudgement::add(const CableJudgement& other) {
  verdict = std::max(verdict, other.verdict);
  suspect |= other.suspect;
}

CableJudgement judge_cable(const std::map<std::string, PortEvidence>& ports, const PortRef& a, const PortRef& b) {
  CableJudgement j;
  for (const auto& end : {a, b}) {
    auto it = ports.find(port_key(end.node, end.port));
    if (it != ports.end()) j.add({it->second.verdict, it->second.suspect});
  }
  return j;
}

namespace {

CableVerdict verdict_of_kind(FindingKind kind) {
  switch (info(kind).map) {
    case MapMark::Missing: return CableVerdict::Missing;
    case MapMark::Miswired: return CableVerdict::Miswired;
    case MapMark::Flapping: return CableVerdict::Flapping;
    case MapMark::Degraded: return CableVerdict::Degraded;
    case MapMark::Unloaded: return CableVerdict::Unloaded;
    case MapMark::Slow: return CableVerdict::Slow;
    case MapMark::Errors: break;
  }
  return CableVerdict::Errors;
}

void worsen(CableVerdict& v, CableVerdict w) { v = std::max(v, w); }

// A finding's verdict on each of its ports; a systemic finding's on its own cables' ports.
void mark(std::map<std::string, PortEvidence>& out, const Finding& f) {
  if (f.kind == FindingKind::Systemic) {
    for (const auto& c : details_of<FindingKind::Systemic>(f).cables) mark(out, c);
    return;
  }
  if (f.severity < Severity::Warning) return;
  for (const auto& p : f.ports) {
    if (p.port <= 0) continue;
    auto& e = out[port_key(p.node, p.port)];
    worsen(e.verdict, verdict_of_kind(f.kind));
    e.suspect |= f.kind == FindingKind::SuspectCable;
    e.evidence.push_back(std::string(to_string(f.kind)) + ": " + f.message);
  }
}
}  // namespace

std::map<std::string, PortEvidence> port_evidence(const RunData& run) {
  std::map<std::string, PortEvidence> out;
  std::vector<Finding> findings = run_verdict(run).findings;
  sort_worst_first(findings);
  for (const auto& f : findings) mark(out, f);
  if (run.burn) {
    // Cables the burn's localisation named ("node[port]" at both ends): outlined, and slow
    // when it named them with confidence.
    for (const auto& x : run.burn->suspects.value_or(std::vector<burn::SuspectRecord>{})) {
      for (const std::string& name : {x.from, x.to}) {
        const auto open = name.rfind('[');
        if (open == std::string::npos || name.back() != ']') continue;
        auto& e = out[port_key(name.substr(0, open), std::atoi(name.c_str() + open + 1))];
        e.suspect = true;
        if (x.confidence < 0.75) continue;
        worsen(e.verdict, CableVerdict::Slow);
        e.evidence.push_back(
            fmt::format("suspect cable: {:.0f}% confidence, {} slow flows", 100 * x.confidence, x.slow_flows));
      }
    }
    for (const auto& ep : run.burn->endpoints) {
      const std::string name = ep.endpoint.value_or("");
      const auto colon = name.find(':');
      if (ep.verdict == burn::Verdict::Pass || ep.verdict == burn::Verdict::Unjudged || colon == std::string::npos)
        continue;
      const int port = std::atoi(name.c_str() + colon + 1);
      auto& e = out[port_key(ep.host.value_or("") + " " + name.substr(0, colon), port)];
      worsen(e.verdict, ep.verdict == burn::Verdict::Failed ? CableVerdict::Errors : CableVerdict::Slow);
      e.evidence.push_back(std::string("burn: endpoint ") + burn::to_string(ep.verdict) +
                           (ep.reason ? ": " + *ep.reason : ""));
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

MapBox switch_box(const std::string& name, int tier, double x, double y) {
  MapBox b;
  b.name = name, b.tier = tier, b.x = x, b.y = y;
  return b;
}

MapBox hcas_box(const topo::Fabric& fabric, topo::NodeId leaf, double x, double y,
                const std::map<std::string, PortEvidence>& ports) {
  const auto& ln = fabric.node(leaf);
  MapBox b = switch_box(ln.name + " HCAs", 0, x, y);
  b.leaf = ln.name;
  CableJudgement worst;
  for (const auto& p : ln.ports) {
    if (!p.linked() || !fabric.node(p.remote.node).is_ca()) continue;
    ++b.hcas;
    worst.add(judge_cable(ports, {fabric.node(p.remote.node).name, p.remote.port}, {ln.name, p.number}));
  }
  b.verdict = worst.verdict, b.suspect = worst.suspect;
  return b;
}

MapEdge hcas_edge(size_t leaf_box, size_t hcas_box, const MapBox& hcas) {
  MapEdge e;
  e.a = leaf_box, e.b = hcas_box, e.cables = hcas.hcas, e.verdict = hcas.verdict, e.suspect = hcas.suspect;
  return e;
}

FabricMap layout_fabric(const topo::Fabric& fabric, const std::map<std::string, PortEvidence>& ports,
                        const std::vector<std::pair<PortRef, PortRef>>& missing, const std::vector<bool>& include) {
  constexpr double kRow = 170, kMargin = 60, kMinGap = 14;
  const auto tiers = node_tiers(fabric);
  auto judge = [&](topo::PortEnd a, topo::PortEnd b) {
    return judge_cable(ports, {fabric.node(a.node).name, a.port}, {fabric.node(b.node).name, b.port});
  };
  auto drawn = [&](topo::NodeId id) { return tiers[id] >= 1 && (include.empty() || include[id]); };
  FabricMap m;
  // Rows: core (top) .. leaf; one aggregate box per leaf below it.
  int top = 1;
  for (topo::NodeId id = 0; id < fabric.size(); ++id)
    if (drawn(id)) top = std::max(top, std::min(tiers[id], 3));
  std::map<topo::NodeId, size_t> box_of;
  std::vector<std::vector<topo::NodeId>> rows(top + 1);
  for (topo::NodeId id = 0; id < fabric.size(); ++id)
    if (drawn(id)) rows[std::min(tiers[id], 3)].push_back(id);
  size_t widest = 1;
  for (auto& r : rows) {
    std::sort(r.begin(), r.end(), [&](auto a, auto b) { return fabric.node(a).name < fabric.node(b).name; });
    widest = std::max(widest, r.size());
  }
  m.width = std::max(800.0, 2 * kMargin + widest * kMinGap);
  m.height = 2 * kMargin + top * kRow;
  for (int t = top; t >= 1; --t) {
    const double gap = (m.width - 2 * kMargin) / std::max<size_t>(rows[t].size(), 1);
    for (size_t i = 0; i < rows[t].size(); ++i) {
      box_of[rows[t][i]] = m.boxes.size();
      m.boxes.push_back(
          switch_box(fabric.node(rows[t][i]).name, t, kMargin + gap * (i + 0.5), kMargin + (top - t) * kRow));
    }
  }
  // HCAs per leaf, aggregated into one box under the leaf.
  std::map<std::pair<size_t, size_t>, MapEdge> bundles;
  for (auto leaf : rows[1]) {
    MapBox agg = hcas_box(fabric, leaf, m.boxes[box_of[leaf]].x, m.height - kMargin, ports);
    if (agg.hcas == 0) continue;
    m.boxes.push_back(agg);
    bundles[{box_of[leaf], m.boxes.size() - 1}] = hcas_edge(box_of[leaf], m.boxes.size() - 1, agg);
  }
  for (const auto& l : fabric.links()) {
    auto a = box_of.find(l.a.node), b = box_of.find(l.b.node);
    if (a == box_of.end() || b == box_of.end()) continue;  // HCA cables are in the aggregates
    auto key = std::minmax(a->second, b->second);
    auto& e = bundles[{key.first, key.second}];
    e.a = key.first, e.b = key.second, ++e.cables;
    const auto j = judge(l.a, l.b);
    worsen(e.verdict, j.verdict), e.suspect |= j.suspect;
  }
  for (const auto& [a, b] : missing) {
    auto na = fabric.find_name(a.node), nb = fabric.find_name(b.node);
    if (!na || !nb || !box_of.count(*na) || !box_of.count(*nb)) continue;
    auto key = std::minmax(box_of[*na], box_of[*nb]);
    auto& e = bundles[{key.first, key.second}];
    if (e.cables == 0) e.planned_only = true;
    e.a = key.first, e.b = key.second, ++e.cables, e.verdict = CableVerdict::Missing;
  }
  for (auto& [k, e] : bundles) {
    m.edges.push_back(e);
    for (size_t end : {e.a, e.b})
      if (m.boxes[end].hcas == 0) worsen(m.boxes[end].verdict, e.verdict), m.boxes[end].suspect |= e.suspect;
  }
  return m;
}

}  // namespace ibburn::report
