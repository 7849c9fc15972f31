#include "wiring/wiring_index.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>

#include "common/union_find.h"

namespace ibburn::wiring {

WiringIndex::WiringIndex(const wiring::Wiring& plan) : plan_(plan) {
  by_name_.reserve(plan.cables.size() * 2);
  std::vector<int> max_port;
  std::vector<size_t> degree;
  // Plans list a switch's cables together: remembering the last name per column saves most
  // hash lookups.
  std::string_view last[2];
  WiringNode last_id[2] = {kNoWiringNode, kNoWiringNode};
  auto intern = [&](const wiring::CableEnd& e, int column) -> WiringEnd {
    WiringNode id = last_id[column];
    if (id == kNoWiringNode || last[column] != e.node) {
      auto [it, added] = by_name_.emplace(std::string_view(e.node), static_cast<WiringNode>(names_.size()));
      id = it->second;
      if (added) {
        names_.push_back(&e.node);
        max_port.push_back(0);
        degree.push_back(0);
      }
      last[column] = e.node;
      last_id[column] = id;
    }
    max_port[id] = std::max(max_port[id], e.port);
    ++degree[id];
    return {id, e.port};
  };
  ends_.reserve(plan.cables.size());
  for (const auto& c : plan.cables) {
    WiringEnd a = intern(c.a, 0);
    ends_.push_back({a, intern(c.b, 1)});
  }
  const size_t n = names_.size();
  port_first_.assign(n + 1, 0);
  cable_first_.assign(n + 1, 0);
  for (size_t v = 0; v < n; ++v) {
    port_first_[v + 1] = port_first_[v] + static_cast<size_t>(max_port[v]) + 1;
    cable_first_[v + 1] = cable_first_[v] + degree[v];
  }
  port_cable_.assign(port_first_[n], -1);
  cables_.resize(cable_first_[n]);
  std::vector<size_t> fill(cable_first_.begin(), cable_first_.end() - 1);
  for (size_t c = 0; c < ends_.size(); ++c) {
    for (WiringEnd e : {ends_[c].first, ends_[c].second}) {
      port_cable_[port_first_[e.node] + static_cast<size_t>(e.port)] =
          static_cast<int>(c);  // the loader rejects a port used twice
      cables_[fill[e.node]++] = static_cast<int>(c);
    }
  }
  UnionFind comp(n);
  for (auto& [a, b] : ends_) comp.join(a.node, b.node);
  component_.resize(n);
  std::unordered_map<uint32_t, uint32_t> dense;
  for (WiringNode v = 0; v < n; ++v)
    component_[v] = dense.emplace(comp.find(v), static_cast<uint32_t>(dense.size())).first->second;
  component_count_ = dense.size();
}

WiringNode WiringIndex::find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? kNoWiringNode : it->second;
}

WiringNode WiringIndex::find(std::string_view name, std::string_view description) const {
  const WiringNode p = find(name);
  return p == kNoWiringNode && name != description ? find(description) : p;
}

std::vector<int> WiringIndex::node_planes() const {
  std::vector<int> plane(size(), 0);
  for (size_t c = 0; c < cable_count(); ++c) plane[end_a(c).node] = plane[end_b(c).node] = cable(c).plane;
  return plane;
}

int WiringIndex::cable_at(WiringEnd e) const {
  if (!e.valid() || e.port < 0 || e.port > max_port(e.node)) return -1;
  return port_cable_[port_first_[e.node] + static_cast<size_t>(e.port)];
}

WiringEnd WiringIndex::peer(WiringEnd e) const {
  int c = cable_at(e);
  if (c < 0) return {};
  return ends_[c].first == e ? ends_[c].second : ends_[c].first;
}

std::string WiringLayout::tier_word(int t) const {
  static const char* words[] = {"HCA", "leaf", "spine", "core"};
  if (t >= 0 && t <= 3) return words[t];
  return "tier " + std::to_string(t);
}

std::string WiringLayout::summarize(const std::vector<WiringNode>& nodes, size_t unplanned) const {
  // counts[pod][tier]; pod -1 (no pod) is printed last.
  std::map<int, std::map<int, size_t>> counts;
  for (WiringNode n : nodes) ++counts[pod[n] < 0 ? INT32_MAX : pod[n]][tier[n]];
  auto tiers_text = [&](const std::map<int, size_t>& by_tier) {
    std::string s;
    // switches from the bottom up, HCAs last: '16 leaf, 16 spine, 512 HCAs'
    for (auto& [t, c] : by_tier)
      if (t > 0) s += (s.empty() ? "" : ", ") + std::to_string(c) + " " + tier_word(t);
    if (auto it = by_tier.find(0); it != by_tier.end())
      s += (s.empty() ? "" : ", ") + std::to_string(it->second) + (it->second == 1 ? " HCA" : " HCAs");
    return s;
  };
  std::string out;
  for (auto& [p, by_tier] : counts) {
    if (!out.empty()) out += "; ";
    if (p != INT32_MAX) out += pod_label[p] + ": ";
    out += tiers_text(by_tier);
  }
  if (unplanned) out += (out.empty() ? "" : "; ") + std::to_string(unplanned) + " unplanned";
  return out.empty() ? "nothing" : out;
}

namespace {
// A pod's label: the common prefix of its switch names when it names the pod ('pod3-'),
// else 'pod N'.
std::string pod_label(const std::vector<std::string_view>& switch_names, int index) {
  if (!switch_names.empty()) {
    std::string_view prefix = switch_names.front();
    for (auto n : switch_names) {
      size_t i = 0;
      while (i < prefix.size() && i < n.size() && prefix[i] == n[i]) ++i;
      prefix = prefix.substr(0, i);
    }
    // Cut back to a boundary so 'pod1' is not taken from 'pod10'/'pod11'.
    while (!prefix.empty() && std::isdigit(static_cast<unsigned char>(prefix.back())) &&
           prefix.size() < switch_names.front().size() &&
           std::isdigit(static_cast<unsigned char>(switch_names.front()[prefix.size()])))
      prefix.remove_suffix(1);
    while (!prefix.empty() && !std::isalnum(static_cast<unsigned char>(prefix.back()))) prefix.remove_suffix(1);
    bool has_digit =
        std::any_of(prefix.begin(), prefix.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (has_digit && std::isdigit(static_cast<unsigned char>(prefix.back()))) return std::string(prefix);
  }
  return "pod " + std::to_string(index + 1);
}
}  // namespace

WiringLayout layout_plan(const WiringIndex& plan, const std::vector<int8_t>& hca_hint) {
  const size_t n = plan.size();
  WiringLayout layout;
  layout.is_hca.assign(n, false);
  layout.tier.assign(n, 0);
  layout.pod.assign(n, -1);
  for (WiringNode v = 0; v < n; ++v) {
    int8_t hint = v < hca_hint.size() ? hca_hint[v] : 0;
    layout.is_hca[v] = hint == 1 || (hint == 0 && plan.cables_of(v).size() <= 2 && plan.max_port(v) <= 2);
  }
  // Tiers: distance from the nearest HCA, over planned cables.
  std::vector<int> dist(n, -1);
  std::deque<WiringNode> queue;
  for (WiringNode v = 0; v < n; ++v)
    if (layout.is_hca[v]) dist[v] = 0, queue.push_back(v);
  while (!queue.empty()) {
    WiringNode v = queue.front();
    queue.pop_front();
    for (int c : plan.cables_of(v)) {
      WiringNode w = plan.end_a(c).node == v ? plan.end_b(c).node : plan.end_a(c).node;
      if (dist[w] < 0 && !layout.is_hca[w]) dist[w] = dist[v] + 1, queue.push_back(w);
    }
  }
  for (WiringNode v = 0; v < n; ++v) {
    layout.tier[v] = layout.is_hca[v] ? 0 : std::max(dist[v], 1);
    layout.top_tier = std::max(layout.top_tier, layout.tier[v]);
  }
  if (layout.top_tier < 3) return layout;
  // Pods: what stays connected once the top tier is taken away.
  UnionFind comp(n);
  for (size_t c = 0; c < plan.cable_count(); ++c) {
    WiringNode a = plan.end_a(c).node, b = plan.end_b(c).node;
    if (layout.tier[a] < layout.top_tier && layout.tier[b] < layout.top_tier) comp.join(a, b);
  }
  // Number pods in the order of their first switch name, so labels are stable.
  std::map<uint32_t, std::vector<std::string_view>> members;  // root -> switch names
  for (WiringNode v = 0; v < n; ++v)
    if (layout.tier[v] < layout.top_tier && !layout.is_hca[v]) members[comp.find(v)].push_back(plan.name(v));
  std::vector<std::pair<std::string_view, uint32_t>> order;
  for (auto& [root, names] : members) {
    std::sort(names.begin(), names.end());
    order.push_back({names.front(), root});
  }
  std::sort(order.begin(), order.end());
  std::unordered_map<uint32_t, int> pod_of_root;
  for (size_t i = 0; i < order.size(); ++i) {
    pod_of_root[order[i].second] = static_cast<int>(i);
    layout.pod_label.push_back(pod_label(members[order[i].second], static_cast<int>(i)));
  }
  for (WiringNode v = 0; v < n; ++v) {
    if (layout.tier[v] >= layout.top_tier) continue;
    auto it = pod_of_root.find(comp.find(v));
    if (it != pod_of_root.end()) layout.pod[v] = it->second;
  }
  return layout;
}

}  // namespace ibburn::wiring
