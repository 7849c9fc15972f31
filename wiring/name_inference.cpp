#include "wiring/name_inference.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "common/guid.h"
#include "wiring/wiring_index.h"

namespace ibburn::wiring {

using topo::kNoNode;
using topo::NodeId;

namespace {
struct Proposal {
  int votes = 0;
  int exact = 0;  // votes whose port number matches the plan's too
  NodeId node = kNoNode;
  WiringNode name = kNoWiringNode;
};
}  // namespace

NameInference infer_switch_names(const topo::Fabric& f, const Wiring& w) {
  WiringIndex plan(w);
  std::vector<WiringNode> plan_of(f.size(), kNoWiringNode);
  std::vector<NodeId> taken(plan.size(), kNoNode);
  std::vector<NodeId> pending;
  for (NodeId i = 0; i < f.size(); ++i) {
    const topo::Node& n = f.node(i);
    const WiringNode p = plan.find(n.name, n.description);
    if (p != kNoWiringNode) {
      if (taken[p] == kNoNode) taken[p] = i, plan_of[i] = p;
    } else if (n.is_switch()) {
      pending.push_back(i);
    }
  }
  std::vector<NodeId> inferred;
  std::unordered_map<WiringNode, Proposal> tally;
  // Each round names the switches with the strongest evidence from already named
  // neighbours; their neighbours get evidence for the next round (leaves, spines, cores).
  while (!pending.empty()) {
    std::vector<Proposal> proposals;
    for (NodeId s : pending) {
      tally.clear();
      for (const topo::Port& port : f.node(s).ports) {
        if (!port.linked()) continue;
        WiringNode px = plan_of[port.remote.node];
        if (px == kNoWiringNode) continue;
        WiringEnd pe = plan.peer({px, port.remote.port});
        if (!pe.valid() || taken[pe.node] != kNoNode) continue;
        Proposal& t = tally[pe.node];
        t.node = s, t.name = pe.node, ++t.votes;
        if (pe.port == port.number) ++t.exact;
      }
      const Proposal* best = nullptr;
      for (auto& [name, t] : tally)
        if (!best || std::tie(t.votes, t.exact, best->name) > std::tie(best->votes, best->exact, t.name)) best = &t;
      if (best) proposals.push_back(*best);
    }
    if (proposals.empty()) break;
    std::sort(proposals.begin(), proposals.end(), [](const Proposal& a, const Proposal& b) {
      return std::tie(b.votes, b.exact, a.node) < std::tie(a.votes, a.exact, b.node);
    });
    // Weak evidence waits for a later round, when more neighbours carry names.
    const int threshold = (proposals.front().votes + 3) / 4;
    for (const Proposal& p : proposals) {
      if (p.votes < threshold || taken[p.name] != kNoNode) continue;
      taken[p.name] = p.node;
      plan_of[p.node] = p.name;
      inferred.push_back(p.node);
    }
    std::erase_if(pending, [&](NodeId s) { return plan_of[s] != kNoWiringNode; });
  }

  NameInference out;
  for (NodeId s : inferred) {
    InferredName n{f.node(s).guid, plan.name(plan_of[s]), 0, 0};
    for (const topo::Port& port : f.node(s).ports) {
      if (!port.linked() || plan_of[port.remote.node] == kNoWiringNode) continue;
      ++n.neighbours;
      if (plan.peer({plan_of[port.remote.node], port.remote.port}).node == plan_of[s]) ++n.agreeing;
    }
    out.named.push_back(std::move(n));
  }
  std::sort(out.named.begin(), out.named.end(),
            [](const InferredName& a, const InferredName& b) { return a.name < b.name; });
  for (NodeId s : pending) out.unnamed.push_back(f.node(s).guid);
  return out;
}

topo::NodeNameMap NameInference::map() const {
  topo::NodeNameMap m;
  for (const auto& n : named) m.add(n.guid, n.name);
  return m;
}

std::string NameInference::to_text() const {
  std::string out =
      "# node-name-map inferred from the wiring plan by 'ibburn wiring name-switches';\n"
      "# confidence = share of each switch's links to named neighbours that the plan agrees with\n";
  char buf[64];
  for (const auto& n : named) {
    out += Guid{n.guid}.text() + " \"" + n.name + "\"";
    std::snprintf(buf, sizeof buf, " # confidence %.2f (%d of %d)\n", n.confidence(), n.agreeing, n.neighbours);
    out += buf;
  }
  for (uint64_t g : unnamed) out += "# " + Guid{g}.text() + ": no planned name fits\n";
  return out;
}

NameInference name_switches_from_plan(topo::Fabric& fabric, const Wiring& plan) {
  NameInference inf = infer_switch_names(fabric, plan);
  inf.map().apply(fabric);
  return inf;
}

}  // namespace ibburn::wiring
