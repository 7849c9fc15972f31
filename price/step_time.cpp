#include "price/step_time.h"

#include <algorithm>

namespace ibburn::price {

StepTimer::StepTimer(const PriceFabric& fabric, std::vector<double> capacity_gbps)
    : fabric_(fabric),
      capacity_(std::move(capacity_gbps)),
      load_(fabric.cables().size(), 0.0),
      group_load_(fabric.group_count(), 0.0),
      group_moved_(fabric.group_count(), 0.0) {}

double StepTimer::unit_time(const EdgeLoads& loads, const RateScale* scale) {
  auto rate = [&](routing::EdgeId e) {
    double s = 1.0;
    if (scale)
      if (auto it = scale->find(e); it != scale->end()) s = it->second;
    return capacity_[e] * s;
  };
  const bool adaptive = fabric_.adaptive();
  double t = 0;
  auto worst = [&t](double load, double gbps) {
    if (load <= 0) return;
    t = std::max(t, gbps > 0 ? load / gbps : kNever);
  };
  groups_.clear();
  dead_hosts_.clear();
  host_moved_.clear();
  for (const auto& [e, l] : loads) {
    load_[e] = l;
    const double r = rate(e);
    if (const HostId h = fabric_.host_of_edge(e); h != UINT32_MAX) {
      if (r > 0 || l <= 0) {
        worst(l, r);
      } else {
        dead_hosts_.emplace_back(h, fabric_.host_up(e));
        host_moved_.push_back(l);
      }
      continue;
    }
    const GroupId g = fabric_.group(e);
    if (group_load_[g] == 0 && group_moved_[g] == 0) groups_.push_back(g);
    if (adaptive) {
      group_load_[g] += l;
    } else if (r > 0) {
      worst(l, r);
    } else {
      group_moved_[g] += l;
    }
    if (group_load_[g] == 0 && group_moved_[g] == 0) group_load_[g] = 1e-300;  // keep it marked
  }
  for (GroupId g : groups_) {
    const auto& members = fabric_.group_edges(g);
    if (adaptive) {
      double sum = 0;
      for (routing::EdgeId e : members) sum += rate(e);
      worst(group_load_[g] < 1e-200 ? 0 : group_load_[g], sum);
    } else if (group_moved_[g] > 0) {
      size_t alive = 0;
      for (routing::EdgeId e : members) alive += rate(e) > 0;
      if (alive == 0) t = kNever;
      for (routing::EdgeId e : members)
        if (const double r = rate(e); r > 0) worst(load_[e] + group_moved_[g] / static_cast<double>(alive), r);
    }
    group_load_[g] = group_moved_[g] = 0;
  }
  // One host's dead cables move their loads together.
  for (size_t i = 0; i < dead_hosts_.size(); ++i)
    for (size_t j = i + 1; j < dead_hosts_.size(); ++j)
      if (dead_hosts_[j] == dead_hosts_[i]) host_moved_[i] += host_moved_[j], host_moved_[j] = -1;
  for (size_t i = 0; i < dead_hosts_.size(); ++i) {
    if (host_moved_[i] < 0) continue;
    const auto [h, up] = dead_hosts_[i];
    std::vector<routing::EdgeId> alive;
    for (size_t rail = 0; rail < fabric_.rails().size(); ++rail)
      if (const routing::EdgeId e = fabric_.host_edge(h, rail, up); e != PriceFabric::kNoEdge && rate(e) > 0)
        alive.push_back(e);
    if (alive.empty()) t = kNever;
    for (routing::EdgeId e : alive) worst(load_[e] + host_moved_[i] / static_cast<double>(alive.size()), rate(e));
  }
  for (const auto& [e, l] : loads) load_[e] = 0;
  return t;
}

}  // namespace ibburn::price
