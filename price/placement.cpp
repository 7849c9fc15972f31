#include "price/placement.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "common/error.h"
#include "common/text.h"
#include "common/union_find.h"

namespace ibburn::price {

SlurmLayout slurm_layout(const PriceFabric& fabric) {
  const topo::Fabric& f = fabric.fabric();
  std::map<std::string, std::vector<HostId>> by_leaf;  // by the leaf's name
  std::map<std::string, topo::NodeId> leaf_node;
  for (HostId h = 0; h < fabric.hosts().size(); ++h) {
    const PriceHost& host = fabric.hosts()[h];
    if (host.leaf == topo::kNoNode) continue;
    by_leaf[f.node(host.leaf).name].push_back(h);
    leaf_node[f.node(host.leaf).name] = host.leaf;
  }
  SlurmLayout out;
  std::vector<topo::NodeId> leaves;
  for (auto& [name, hosts] : by_leaf) {
    std::sort(hosts.begin(), hosts.end(),
              [&](HostId a, HostId b) { return fabric.hosts()[a].name < fabric.hosts()[b].name; });
    out.leaves.push_back(hosts);
    leaves.push_back(leaf_node[name]);
  }
  // Pods: leaves joined through the switches one tier above them.
  UnionFind pods(f.size());
  for (const auto& e : fabric.cables().edges()) {
    const int ta = fabric.tier(e.from.node), tb = fabric.tier(e.to.node);
    if (std::min(ta, tb) >= 1 && std::max(ta, tb) <= 2) pods.join(e.from.node, e.to.node);
  }
  std::map<size_t, size_t> pod_of_root;
  for (size_t l = 0; l < leaves.size(); ++l) {
    auto [it, added] = pod_of_root.emplace(pods.find(leaves[l]), out.pods.size());
    if (added) out.pods.emplace_back();
    out.pods[it->second].push_back(l);
  }
  return out;
}

namespace {

size_t hosts_in(const SlurmLayout& layout, const std::vector<size_t>& leaves) {
  size_t n = 0;
  for (size_t l : leaves) n += layout.leaves[l].size();
  return n;
}

size_t largest_leaf(const SlurmLayout& layout) {
  size_t n = 0;
  for (const auto& l : layout.leaves) n = std::max(n, l.size());
  return n;
}

size_t largest_pod(const SlurmLayout& layout) {
  size_t n = 0;
  for (const auto& p : layout.pods) n = std::max(n, hosts_in(layout, p));
  return n;
}

size_t all_hosts(const SlurmLayout& layout) {
  size_t n = 0;
  for (const auto& l : layout.leaves) n += l.size();
  return n;
}

// Tiles `hosts` into blocks of `n`.
void tile(const std::vector<HostId>& hosts, size_t n, std::vector<Placement>& out) {
  for (size_t i = 0; n > 0 && i + n <= hosts.size(); i += n)
    out.push_back({{hosts.begin() + i, hosts.begin() + i + n}});
}

}  // namespace

std::vector<JobSize> parse_job_sizes(const std::string& spec, const SlurmLayout& layout, const std::string& option) {
  const size_t all = all_hosts(layout);
  std::vector<JobSize> out;
  if (spec.empty()) {
    out.push_back({"leaf", largest_leaf(layout)});
    if (layout.pods.size() > 1) out.push_back({"pod", largest_pod(layout)});
    out.push_back({"all", all});
  } else {
    for (size_t at = 0; at <= spec.size();) {
      const size_t comma = std::min(spec.find(',', at), spec.size());
      const std::string s(trim(std::string_view(spec).substr(at, comma - at)));
      at = comma + 1;
      if (s == "leaf") {
        out.push_back({s, largest_leaf(layout)});
      } else if (s == "pod") {
        out.push_back({s, largest_pod(layout)});
      } else if (s == "all") {
        out.push_back({s, all});
      } else {
        size_t n = 0;
        const bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits && s.size() < 10) n = std::stoul(s);
        if (n < 2)
          throw InputError(option, 0,
                           fmt::format("job size '{}' is not a number of hosts (2 or more), leaf, pod or all", s));
        if (n > all) throw InputError(option, 0, fmt::format("job size {} is more than the fabric's {} hosts", n, all));
        out.push_back({s, n});
      }
    }
  }
  std::erase_if(out, [](const JobSize& j) { return j.hosts < 2; });  // one host: no traffic on the fabric
  return out;
}

std::vector<Placement> placements(const SlurmLayout& layout, size_t n) {
  std::vector<Placement> out;
  if (n == 0) return out;
  if (n <= largest_leaf(layout)) {
    for (const auto& leaf : layout.leaves) tile(leaf, n, out);
    return out;
  }
  auto hosts_of = [&](const std::vector<size_t>& leaves) {
    std::vector<HostId> hosts;
    for (size_t l : leaves) hosts.insert(hosts.end(), layout.leaves[l].begin(), layout.leaves[l].end());
    return hosts;
  };
  if (n <= largest_pod(layout)) {
    for (const auto& pod : layout.pods) tile(hosts_of(pod), n, out);
    return out;
  }
  std::vector<size_t> every(layout.leaves.size());
  for (size_t l = 0; l < every.size(); ++l) every[l] = l;
  tile(hosts_of(every), n, out);
  return out;
}

}  // namespace ibburn::price
