#include "burn/ring_pattern.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "common/error.h"

namespace ibburn::burn {

std::vector<std::string> ring_hosts(const std::vector<EndpointInfo>& endpoints) {
  std::set<std::string> hosts;
  for (const auto& e : endpoints) hosts.insert(e.host);
  return {hosts.begin(), hosts.end()};
}

Plan make_ring(const std::vector<EndpointInfo>& endpoints, int streams) {
  const std::vector<std::string> hosts = ring_hosts(endpoints);
  if (hosts.size() < 2)
    throw InputError("--pattern", 0, fmt::format("ring needs ranks on 2 hosts or more, got {}", hosts.size()));
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < hosts.size(); ++i) position[hosts[i]] = i;
  // rail -> the rank of each host on it (-1: none).
  std::map<std::string, std::vector<int>> rails;
  for (size_t r = 0; r < endpoints.size(); ++r) {
    auto& ring = rails.try_emplace(endpoints[r].endpoint, std::vector<int>(hosts.size(), -1)).first->second;
    int& slot = ring[position[endpoints[r].host]];
    if (slot < 0) slot = static_cast<int>(r);
  }
  Stage s{"ring step", {}};
  for (const auto& [rail, ranks] : rails) {
    std::vector<int> on;
    for (int r : ranks)
      if (r >= 0) on.push_back(r);
    if (on.size() < 2) continue;
    for (size_t i = 0; i < on.size(); ++i) s.flows.push_back({on[i], on[(i + 1) % on.size()], false, streams});
  }
  if (s.flows.empty()) throw InputError("--pattern", 0, "ring: no rail has ranks on 2 hosts");
  return {kRingPattern, {s}};
}

}  // namespace ibburn::burn
