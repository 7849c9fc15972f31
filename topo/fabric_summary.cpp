#include "topo/fabric_summary.h"

#include <algorithm>

#include <fmt/format.h>

namespace ibburn::topo {

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
  j["unreached_peers"] = s.unreached_peers;
  return j;
}

}  // namespace ibburn::topo
