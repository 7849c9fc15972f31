#include "topo/fabric.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "common/huge_pages.h"
#include "common/union_find.h"

namespace ibburn::topo {

const char* to_string(NodeType t) {
  switch (t) {
    case NodeType::CA: return "CA";
    case NodeType::Switch: return "Switch";
    case NodeType::Router: return "Router";
    default: return "Unknown";
  }
}

const char* to_string(PortState s) {
  switch (s) {
    case PortState::Down: return "Down";
    case PortState::Init: return "Initialize";
    case PortState::Armed: return "Armed";
    case PortState::Active: return "Active";
    default: return "Unknown";
  }
}

const char* to_string(PhysState s) {
  switch (s) {
    case PhysState::Sleep: return "Sleep";
    case PhysState::Polling: return "Polling";
    case PhysState::Disabled: return "Disabled";
    case PhysState::Training: return "PortConfigurationTraining";
    case PhysState::LinkUp: return "LinkUp";
    case PhysState::LinkErrorRecovery: return "LinkErrorRecovery";
    case PhysState::PhyTest: return "PhyTest";
    default: return "Unknown";
  }
}

NodeId Fabric::add_node(NodeType type, uint64_t guid, std::string description, int num_ports) {
  NodeId id = static_cast<NodeId>(nodes_.size());
  Node n;
  n.type = type;
  n.guid = guid;
  n.sysimg_guid = guid;
  n.name = description;
  n.description = std::move(description);
  n.num_ports = num_ports;
  n.ports.resize(static_cast<size_t>(num_ports) + 1);
  for (int p = 0; p <= num_ports; ++p) n.ports[p].number = p;
  by_guid_.emplace(guid, id);
  by_name_.emplace(n.name, id);
  nodes_.push_back(std::move(n));
  return id;
}

void Fabric::reserve(size_t n) {
  nodes_.reserve(n);
  advise_huge_pages(nodes_.data(), n * sizeof(Node));
  by_guid_.reserve(n);
  by_name_.reserve(n);
}

std::optional<NodeId> Fabric::find_guid(uint64_t guid) const {
  auto it = by_guid_.find(guid);
  if (it == by_guid_.end()) return std::nullopt;
  return it->second;
}

std::optional<NodeId> Fabric::find_name(const std::string& name) const {
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  for (NodeId i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].description == name) return i;
  return std::nullopt;
}

std::vector<std::vector<NodeId>> Fabric::duplicate_guids() const {
  std::map<uint64_t, std::vector<NodeId>> groups;
  for (NodeId i = 0; i < nodes_.size(); ++i) groups[nodes_[i].guid].push_back(i);
  std::vector<std::vector<NodeId>> out;
  for (auto& [g, ids] : groups)
    if (ids.size() > 1) out.push_back(ids);
  return out;
}

static Port& grow_port(Node& n, int p) {
  if (p < 0) throw std::logic_error("negative port number");
  if (static_cast<size_t>(p) >= n.ports.size()) {
    size_t old = n.ports.size();
    n.ports.resize(static_cast<size_t>(p) + 1);
    for (size_t i = old; i < n.ports.size(); ++i) n.ports[i].number = static_cast<int>(i);
    n.num_ports = std::max(n.num_ports, p);
  }
  return n.ports[p];
}

void Fabric::connect(PortEnd a, PortEnd b) {
  Port& pa = grow_port(nodes_.at(a.node), a.port);
  Port& pb = grow_port(nodes_.at(b.node), b.port);
  if ((pa.remote.valid() && pa.remote != b) || (pb.remote.valid() && pb.remote != a))
    throw std::logic_error("port " + port_name(pa.remote.valid() && pa.remote != b ? a : b) +
                           " is already linked elsewhere");
  pa.remote = b;
  pb.remote = a;
  pa.peer_unreached = pb.peer_unreached = false;
}

void Fabric::disconnect(PortEnd a) {
  Port& pa = port(a);
  if (pa.remote.valid()) port(pa.remote).remote = {};
  pa.remote = {};
}

std::vector<Link> Fabric::links() const {
  std::vector<Link> out;
  for (NodeId i = 0; i < nodes_.size(); ++i) {
    for (const Port& p : nodes_[i].ports) {
      if (!p.remote.valid()) continue;
      PortEnd self{i, p.number};
      if (std::tie(self.node, self.port) < std::tie(p.remote.node, p.remote.port)) out.push_back({self, p.remote});
    }
  }
  return out;
}

size_t Fabric::switch_count() const {
  return std::count_if(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.is_switch(); });
}
size_t Fabric::ca_count() const {
  return std::count_if(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.is_ca(); });
}

std::vector<int> Fabric::tiers() const {
  std::vector<int> tier(nodes_.size(), -1);
  std::vector<NodeId> frontier;
  for (NodeId n = 0; n < nodes_.size(); ++n)
    if (nodes_[n].is_ca()) tier[n] = 0, frontier.push_back(n);
  for (int t = 1; !frontier.empty(); ++t) {
    std::vector<NodeId> next;
    for (NodeId n : frontier)
      for (const Port& p : nodes_[n].ports)
        if (p.remote.valid() && tier[p.remote.node] < 0) tier[p.remote.node] = t, next.push_back(p.remote.node);
    frontier = std::move(next);
  }
  return tier;
}

std::vector<std::vector<NodeId>> Fabric::islands() const {
  UnionFind parts(nodes_.size());
  for (NodeId i = 0; i < nodes_.size(); ++i)
    for (const Port& p : nodes_[i].ports)
      if (p.remote.valid()) parts.join(i, p.remote.node);
  std::map<NodeId, std::vector<NodeId>> groups;
  for (NodeId i = 0; i < nodes_.size(); ++i) groups[parts.find(i)].push_back(i);
  std::vector<std::vector<NodeId>> out;
  for (auto& [root, ids] : groups) out.push_back(std::move(ids));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
  });
  return out;
}

std::string Fabric::port_name(PortEnd e) const {
  if (!e.valid() || e.node >= nodes_.size()) return "?";
  return nodes_[e.node].name + "[" + std::to_string(e.port) + "]";
}

int Fabric::plane(NodeId id) const {
  const int s = nodes_.at(id).subnet;
  return s >= 0 && s < static_cast<int>(subnets_.size()) ? subnets_[s].plane : 0;
}

void Fabric::reset_names_to_descriptions() {
  for (auto& n : nodes_) n.name = n.description;
  reindex_names();
}

void Fabric::reindex_names() {
  by_name_.clear();
  for (NodeId i = 0; i < nodes_.size(); ++i) by_name_.emplace(nodes_[i].name, i);
}

}  // namespace ibburn::topo
