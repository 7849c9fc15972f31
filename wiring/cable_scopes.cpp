#include "wiring/cable_scopes.h"

#include <algorithm>

namespace ibburn::wiring {
namespace {

// "host001 mlx5_3" port 1 -> "mlx5_3"; port 2 -> "mlx5_3 port 2". Empty when the name has no
// device part (a site naming HCAs by host alone has no rails to tell apart).
std::string rail_of(const std::string& hca, int port) {
  const auto space = hca.rfind(' ');
  if (space == std::string::npos || space + 1 == hca.size()) return "";
  std::string device = hca.substr(space + 1);
  return port > 1 ? device + " port " + std::to_string(port) : device;
}

}  // namespace

CableScopes cable_scopes(const WiringIndex& plan, const WiringLayout& layout) {
  CableScopes out;
  std::vector<std::pair<ScopeType, std::string>> in;
  for (size_t c = 0; c < plan.cable_count(); ++c) {
    WiringEnd a = plan.end_a(c), b = plan.end_b(c);
    if (layout.tier[b.node] < layout.tier[a.node]) std::swap(a, b);
    in.clear();
    if (const int plane = plan.cable(c).plane; plane > 0) in.emplace_back(ScopeType::Plane, std::to_string(plane));
    in.emplace_back(ScopeType::Tier,
                    layout.tier_word(layout.tier[a.node]) + "-" + layout.tier_word(layout.tier[b.node]));
    for (WiringEnd e : {a, b}) {
      const std::string& name = plan.name(e.node);
      if (layout.pod[e.node] >= 0) in.emplace_back(ScopeType::Pod, layout.pod_label[layout.pod[e.node]]);
      if (!layout.is_hca[e.node]) {
        in.emplace_back(ScopeType::Switch, name);
      } else if (std::string rail = rail_of(name, e.port); !rail.empty()) {
        in.emplace_back(ScopeType::Rail, std::move(rail));
      }
    }
    out.add_cable({plan.name(a.node), a.port}, {plan.name(b.node), b.port}, in);
  }
  return out;
}

CableScopes cable_scopes(const Wiring& plan) {
  const WiringIndex index(plan);
  return cable_scopes(index, layout_plan(index, {}));
}

CableScopes cable_scopes(const topo::Fabric& fabric) {
  // The links as a plan. Nodes sharing a name count as one: the scopes are for grouping, and a
  // duplicated name is a finding of its own.
  Wiring links;
  auto name_of = [&](topo::PortEnd e) -> const std::string& {
    const topo::Node& n = fabric.node(e.node);
    return n.name.empty() ? n.description : n.name;
  };
  for (const topo::Link& l : fabric.links())
    links.cables.push_back({{name_of(l.a), l.a.port}, {name_of(l.b), l.b.port}, std::nullopt, "", 0});
  const WiringIndex index(links);
  std::vector<int8_t> hint(index.size(), 0);
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    const topo::Node& node = fabric.node(n);
    WiringNode w = index.find(node.name.empty() ? node.description : node.name);
    if (w != kNoWiringNode) hint[w] = node.is_ca() ? 1 : 2;
  }
  return cable_scopes(index, layout_plan(index, hint));
}

}  // namespace ibburn::wiring
