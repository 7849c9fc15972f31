#include "tests/topo_check/fabric_builder.h"

#include <algorithm>
#include <map>

namespace ibburn::testing {

using topo::Fabric;
using topo::NodeType;
using topo::PortEnd;

namespace {
void set_up(topo::Port& p, topo::LinkRate rate) {
  p.state = topo::PortState::Active;
  p.phys = topo::PhysState::LinkUp;
  p.active = p.supported = rate;
}
void set_down(topo::Port& p) {
  p.state = topo::PortState::Down;
  p.phys = topo::PhysState::Polling;
  p.active = {};
}
}  // namespace

BuiltFabric build_fabric(const wiring::Wiring& plan, const BuildOptions& options,
                         const std::unordered_map<std::string, uint64_t>& guids) {
  BuiltFabric b;
  std::map<std::string, int> ports;  // node -> highest planned port, in first-seen order below
  std::vector<std::string> order;
  for (const auto& c : plan.cables)
    for (const auto* e : {&c.a, &c.b}) {
      auto [it, added] = ports.emplace(e->node, e->port);
      if (added) order.push_back(e->node);
      it->second = std::max(it->second, e->port);
    }
  uint64_t next = 0x1000;
  for (const auto& name : order) {
    if (std::find(options.omit.begin(), options.omit.end(), name) != options.omit.end()) continue;
    bool hca = name.find(' ') != std::string::npos;
    auto g = guids.find(name);
    uint64_t guid = g != guids.end() ? g->second : next++;
    std::string desc = !hca && options.generic_switch_descriptions ? "Quantum-2 Mellanox Technologies" : name;
    topo::NodeId id = b.fabric.add_node(hca ? NodeType::CA : NodeType::Switch, guid, desc, ports[name]);
    for (auto& p : b.fabric.node(id).ports) set_down(p);
    b.id[name] = id;
    if (!hca) b.map.add(guid, name);
  }
  for (const auto& c : plan.cables) {
    auto ia = b.id.find(c.a.node), ib = b.id.find(c.b.node);
    if (ia == b.id.end() || ib == b.id.end()) continue;
    PortEnd a{ia->second, c.a.port}, e{ib->second, c.b.port};
    b.fabric.connect(a, e);
    topo::LinkRate rate = c.rate.value_or(topo::LinkRate{topo::Width::X4, topo::Speed::HDR});
    set_up(b.fabric.port(a), rate);
    set_up(b.fabric.port(e), rate);
  }
  return b;
}

std::unordered_map<std::string, uint64_t> design_guids(const wiring::FatTreeDesign& d) {
  std::unordered_map<std::string, uint64_t> guids;
  for (const auto& s : d.switches) guids[s.name] = s.guid;
  for (const auto& h : d.hcas) guids[h.description] = h.guid;
  return guids;
}

BuiltFabric build_fabric(const wiring::FatTreeDesign& d, const BuildOptions& options) {
  return build_fabric(d.wiring, options, design_guids(d));
}

wiring::Wiring make_plan(const std::vector<std::tuple<std::string, int, std::string, int>>& rows,
                         const std::string& rate) {
  wiring::Wiring w;
  w.origin = "test-plan";
  for (auto& [a, ap, b, bp] : rows) {
    wiring::Cable c;
    c.a = {a, ap};
    c.b = {b, bp};
    if (!rate.empty()) c.rate = topo::parse_link_rate(rate);
    w.cables.push_back(c);
  }
  return w;
}

void unplug(Fabric& f, PortEnd p) {
  PortEnd q = f.port(p).remote;
  f.disconnect(p);
  set_down(f.port(p));
  if (q.valid()) set_down(f.port(q));
}

void deactivate(Fabric& f, const std::vector<topo::NodeId>& nodes) {
  for (topo::NodeId n : nodes)
    for (topo::Port& p : f.node(n).ports)
      if (p.linked()) p.state = topo::PortState::Init;
}

void swap_peers(Fabric& f, PortEnd p, PortEnd q) {
  PortEnd rp = f.port(p).remote, rq = f.port(q).remote;
  topo::Port saved = f.port(p);
  f.disconnect(p);
  f.disconnect(q);
  f.connect(p, rq);
  f.connect(q, rp);
  set_up(f.port(p), saved.active);
  set_up(f.port(q), saved.active);
}

void move_plug(Fabric& f, PortEnd from, PortEnd to) {
  PortEnd peer = f.port(from).remote;
  topo::LinkRate rate = f.port(from).active;
  f.disconnect(from);
  set_down(f.port(from));
  f.connect(peer, to);
  set_up(f.port(to), rate);
  set_up(f.port(peer), rate);
}

Fabric island_snapshot(const Fabric& f, const std::vector<topo::NodeId>& nodes) {
  Fabric out;
  std::unordered_map<topo::NodeId, topo::NodeId> map;
  for (topo::NodeId n : nodes) {
    const topo::Node& src = f.node(n);
    topo::NodeId id = out.add_node(src.type, src.guid, src.description, src.num_ports);
    out.node(id) = src;
    for (auto& p : out.node(id).ports) p.remote = {};
    map[n] = id;
  }
  for (const auto& l : f.links()) {
    auto a = map.find(l.a.node), b = map.find(l.b.node);
    if (a != map.end() && b != map.end()) out.connect({a->second, l.a.port}, {b->second, l.b.port});
  }
  out.reindex_names();
  return out;
}

wiring::Wiring split_top_tier(const wiring::FatTreeDesign& d) {
  wiring::Wiring w = d.wiring;
  const auto& sh = d.shape;
  std::vector<std::string> cores;
  std::unordered_map<std::string, int> pod_of_spine;
  for (const auto& s : d.switches) {
    if (s.tier == wiring::Tier::Core) cores.push_back(s.name);
    if (s.tier == wiring::Tier::Spine) pod_of_spine[s.name] = s.pod;
  }
  const int per_pod = static_cast<int>(cores.size()) / sh.pods;  // cores each pod keeps
  std::vector<int> used(static_cast<size_t>(sh.pods), 0);        // uplinks placed per pod
  for (auto& c : w.cables) {
    auto it = pod_of_spine.find(c.a.node);
    if (it == pod_of_spine.end() || std::find(cores.begin(), cores.end(), c.b.node) == cores.end()) continue;
    int p = it->second, i = used[p]++;
    c.b.node = cores[static_cast<size_t>(p + sh.pods * (i / sh.radix % per_pod))];
    c.b.port = i % sh.radix + 1;
  }
  return w;
}

}  // namespace ibburn::testing
