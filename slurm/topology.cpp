#include "slurm/topology.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

#include <fmt/format.h>

#include "common/error.h"
#include "slurm/hostlist.h"
#include "wiring/wiring_index.h"

namespace ibburn::slurm {

SlurmTree::SlurmTree(const wiring::Wiring& cabling, const std::set<std::string>* cas) {
  const wiring::WiringIndex index(cabling);
  std::vector<int8_t> hint;
  if (cas)
    for (wiring::WiringNode v = 0; v < index.size(); ++v) hint.push_back(cas->count(index.name(v)) ? 1 : 2);
  const wiring::WiringLayout layout = wiring::layout_plan(index, hint);

  std::vector<wiring::WiringNode> order;
  for (wiring::WiringNode v = 0; v < index.size(); ++v)
    if (!layout.is_hca[v]) order.push_back(v);
  std::sort(order.begin(), order.end(), [&](wiring::WiringNode a, wiring::WiringNode b) {
    return std::tie(layout.tier[a], index.name(a)) < std::tie(layout.tier[b], index.name(b));
  });
  std::vector<size_t> slot(index.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string& name = index.name(order[i]);
    // topology.conf is words of KEY=VALUE, its lists hostlists: these would split a name.
    if (name.find_first_of(" \t\r\n,=[]#") != std::string::npos)
      throw InputError(cabling.origin, index.cable(static_cast<size_t>(index.cables_of(order[i]).front())).line,
                       fmt::format("switch '{}': Slurm's topology.conf cannot hold a name with whitespace or any "
                                   "of ,=[]# (give it another name in the wiring list or node-name-map)",
                                   name));
    slot[order[i]] = i;
    switches_.push_back({name, layout.tier[order[i]], {}});
  }

  // Each host's HCA ports with the leaf each is cabled to, in (HCA name, port) order.
  std::map<std::string, std::vector<std::tuple<std::string, int, size_t>>> ports_of_host;
  for (size_t c = 0; c < index.cable_count(); ++c) {
    wiring::WiringEnd a = index.end_a(c), b = index.end_b(c);
    if (layout.is_hca[b.node]) std::swap(a, b);
    if (layout.is_hca[b.node]) continue;  // HCA to HCA: no switch in between
    if (layout.is_hca[a.node]) {
      const std::string& hca = index.name(a.node);
      ports_of_host[hca.substr(0, hca.find(' '))].emplace_back(hca, a.port, slot[b.node]);
    } else if (layout.tier[a.node] != layout.tier[b.node]) {
      if (layout.tier[a.node] > layout.tier[b.node]) std::swap(a, b);
      if (layout.tier[b.node] == layout.tier[a.node] + 1) switches_[slot[b.node]].below.insert(slot[a.node]);
    }
  }
  for (auto& [host, ports] : ports_of_host) {
    std::sort(ports.begin(), ports.end());
    std::map<size_t, int> count;
    for (const auto& p : ports) ++count[std::get<2>(p)];
    size_t leaf = std::get<2>(ports.front());
    for (const auto& p : ports)
      if (count[std::get<2>(p)] > count[leaf]) leaf = std::get<2>(p);
    leaf_of_host_[host] = leaf;
    hosts_.push_back(host);
  }
}

SlurmTopology SlurmTree::topology(const std::map<std::string, std::string>& node_of_host) const {
  std::vector<std::set<std::string>> nodes(switches_.size());
  for (const auto& [host, leaf] : leaf_of_host_)
    if (auto it = node_of_host.find(host); it != node_of_host.end()) nodes[leaf].insert(it->second);
  SlurmTopology out;
  std::vector<bool> listed(switches_.size(), false);
  // By tier upwards: a switch's children are decided before it.
  for (size_t i = 0; i < switches_.size(); ++i) {
    SlurmSwitch s{switches_[i].name, switches_[i].tier, {nodes[i].begin(), nodes[i].end()}, {}};
    for (size_t j : switches_[i].below)
      if (listed[j]) s.switches.push_back(switches_[j].name);
    listed[i] = !s.nodes.empty() || !s.switches.empty();
    if (listed[i])
      out.switches.push_back(std::move(s));
    else
      out.left_out.push_back(switches_[i].name);
  }
  std::sort(out.left_out.begin(), out.left_out.end());
  return out;
}

std::string to_topology_conf(const SlurmTopology& topology) {
  std::string text;
  for (const SlurmSwitch& s : topology.switches) {
    text += "SwitchName=" + s.name;
    if (!s.nodes.empty()) text += " Nodes=" + slurm_hostlist(s.nodes);
    if (!s.switches.empty()) text += " Switches=" + slurm_hostlist(s.switches);
    text += "\n";
  }
  if (!topology.left_out.empty())
    text += "# left out (no Slurm node below them): " + slurm_hostlist(topology.left_out) + "\n";
  return text;
}

}  // namespace ibburn::slurm
