#include "topo/fabric_summary.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace ibburn::topo {

bool up_not_active(const Port& p) {
  return (p.state == PortState::Init || p.state == PortState::Armed) &&
         (p.phys == PhysState::LinkUp || p.phys == PhysState::Unknown);
}

std::unordered_map<uint64_t, PortEnd> hca_ports_by_guid(const Fabric& fabric) {
  std::unordered_map<uint64_t, PortEnd> out;
  std::unordered_map<uint64_t, int> uses;
  for (NodeId n = 0; n < fabric.size(); ++n)
    if (!fabric.node(n).is_switch())  // a switch's ports share its GUID; ranks sit on HCAs
      for (const auto& p : fabric.node(n).ports)
        if (p.guid && p.number > 0 && ++uses[p.guid] == 1) out.emplace(p.guid, PortEnd{n, p.number});
  for (const auto& [guid, n] : uses)
    if (n > 1) out.erase(guid);
  return out;
}

bool port_up(const Port& p) {
  return (p.state == PortState::Unknown || p.state == PortState::Active) &&
         (p.phys == PhysState::Unknown || p.phys == PhysState::LinkUp);
}

std::vector<IslandWithoutSm> islands_without_sm(const Fabric& fabric) {
  std::vector<IslandWithoutSm> out;
  for (auto& nodes : fabric.islands()) {
    IslandWithoutSm island;
    size_t known = 0, inactive = 0;
    for (NodeId id : nodes) {
      const Node& node = fabric.node(id);
      island.switches += node.is_switch();
      island.cas += node.is_ca();
      for (const Port& port : node.ports) {
        if (!port.linked()) continue;
        if (port.state != PortState::Unknown) ++known;
        if (up_not_active(port)) ++inactive;
        const PortEnd self{id, port.number}, peer = port.remote;
        if (std::tie(peer.node, peer.port) < std::tie(self.node, self.port)) continue;  // listed from the other end
        ++island.links;
        if (up_not_active(port) || up_not_active(fabric.port(peer))) island.not_active.push_back({self, peer});
      }
    }
    if (2 * inactive <= known) continue;
    auto sw = std::find_if(nodes.begin(), nodes.end(), [&](NodeId n) { return fabric.node(n).is_switch(); });
    const Node& example = fabric.node(sw != nodes.end() ? *sw : nodes.front());
    island.example = example.name.empty() ? example.description : example.name;
    island.nodes = std::move(nodes);
    out.push_back(std::move(island));
  }
  return out;
}

std::string contents(const IslandWithoutSm& island) {
  return fmt::format("{} switch{}, {} HCA{}", island.switches, island.switches == 1 ? "" : "es", island.cas,
                     island.cas == 1 ? "" : "s");
}

FabricSummary summarize(const Fabric& fabric) {
  FabricSummary s;
  for (NodeId id = 0; id < fabric.size(); ++id) {
    const Node& node = fabric.node(id);
    switch (node.type) {
      case NodeType::Switch: ++s.switches; break;
      case NodeType::CA: ++s.cas; break;
      case NodeType::Router: ++s.routers; break;
      default: break;
    }
    for (int p = 1; p < static_cast<int>(node.ports.size()); ++p) {
      const Port& port = node.ports[p];
      const PortEnd end{id, p};
      if (port.peer_unreached) s.unreached_peers.push_back(fabric.port_name(end));
      if (port.linked() || port.peer_unreached) continue;
      if (node.is_switch())
        ++s.switch_ports_down;
      else
        s.ca_ports_down.push_back(fabric.port_name(end));
    }
  }
  for (const Link& link : fabric.links()) {
    ++s.links;
    const LinkRate a = fabric.port(link.a).active, b = fabric.port(link.b).active;
    // A link runs at what both ends trained to; prefer whichever end knows it.
    const LinkRate rate = a.known() ? a : b;
    ++s.links_by_rate[rate.known() ? to_string(rate) : "?"];
    if (a.known() && b.known() && !(a == b)) ++s.rate_mismatched_links;
  }
  for (const auto& island : fabric.islands()) s.island_sizes.push_back(island.size());
  std::sort(s.island_sizes.rbegin(), s.island_sizes.rend());
  s.islands_without_sm = islands_without_sm(fabric);
  return s;
}

namespace {
void append_list(std::string& out, const std::vector<std::string>& items, size_t max_list) {
  for (size_t i = 0; i < items.size() && i < max_list; ++i) out += "    " + items[i] + "\n";
  if (items.size() > max_list) out += fmt::format("    ... and {} more\n", items.size() - max_list);
}
}  // namespace

std::string to_text(const FabricSummary& s, size_t max_list) {
  std::string out;
  out += fmt::format("nodes: {} switches, {} HCAs", s.switches, s.cas);
  if (s.routers) out += fmt::format(", {} routers", s.routers);
  out += "\n";
  out += fmt::format("links: {}\n", s.links);
  for (const auto& [rate, n] : s.links_by_rate) out += fmt::format("    {:<8} {}\n", rate, n);
  if (s.rate_mismatched_links)
    out += fmt::format("links whose ends report different rates: {}\n", s.rate_mismatched_links);
  out += fmt::format("switch ports without a link: {}\n", s.switch_ports_down);
  out += fmt::format("HCA ports without a link: {}\n", s.ca_ports_down.size());
  append_list(out, s.ca_ports_down, max_list);
  out += fmt::format("islands: {}", s.island_sizes.size());
  if (s.island_sizes.size() > 1) {
    out += " (nodes per island:";
    for (size_t i = 0; i < s.island_sizes.size() && i < max_list; ++i) out += fmt::format(" {}", s.island_sizes[i]);
    if (s.island_sizes.size() > max_list) out += " ...";
    out += ")";
  }
  out += "\n";
  for (const auto& island : s.islands_without_sm)
    out += fmt::format("no active subnet manager: {} (e.g. {}): {} of {} links up but not Active\n", contents(island),
                       island.example, island.not_active.size(), island.links);
  out += fmt::format("ports linked to something discovery did not reach: {}\n", s.unreached_peers.size());
  append_list(out, s.unreached_peers, max_list);
  return out;
}

nlohmann::json to_json(const FabricSummary& s) {
  nlohmann::json j;
  j["switches"] = s.switches;
  j["hcas"] = s.cas;
  j["routers"] = s.routers;
  j["links"] = s.links;
  j["links_by_rate"] = s.links_by_rate;
  j["rate_mismatched_links"] = s.rate_mismatched_links;
  j["switch_ports_down"] = s.switch_ports_down;
  j["hca_ports_down"] = s.ca_ports_down;
  j["islands"] = s.island_sizes;
  j["islands_without_sm"] = nlohmann::json::array();
  for (const auto& island : s.islands_without_sm)
    j["islands_without_sm"].push_back({{"switches", island.switches},
                                       {"hcas", island.cas},
                                       {"links", island.links},
                                       {"links_not_active", island.not_active.size()},
                                       {"example", island.example}});
  j["unreached_peers"] = s.unreached_peers;
  return j;
}

}  // namespace ibburn::topo
