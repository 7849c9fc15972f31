#include "localization/counter_localize.h"

#include <algorithm>
#include <cmath>

namespace ibburn::localization {
namespace {

double median(std::vector<double> v) {
  const size_t n = v.size(), mid = n / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (n % 2) return hi;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + hi) / 2;
}

// The others' median and robust spread (1.4826 x MAD estimates a standard deviation).
struct Reference {
  double median = 0, spread = 0;
};
Reference reference(const std::vector<double>& others) {
  const double m = median(others);
  std::vector<double> dev;
  dev.reserve(others.size());
  for (double x : others) dev.push_back(std::abs(x - m));
  return {m, 1.4826 * median(dev)};
}

}  // namespace

std::vector<CounterSuspect> localize_by_counters(const std::vector<routing::PortGroup>& groups,
                                                 const std::vector<PortLoad>& by_edge, const CounterRules& rules) {
  std::vector<CounterSuspect> out;
  std::vector<routing::EdgeId> read;
  std::vector<double> data, wait;
  for (size_t g = 0; g < groups.size(); ++g) {
    read.clear();
    for (routing::EdgeId e : groups[g].edges)
      if (e < by_edge.size() && by_edge[e].data_octets >= 0) read.push_back(e);
    if (read.size() < 2) continue;
    for (routing::EdgeId p : read) {
      data.clear();
      wait.clear();
      for (routing::EdgeId o : read) {
        if (o == p) continue;
        data.push_back(by_edge[o].data_octets);
        if (by_edge[o].wait >= 0) wait.push_back(by_edge[o].wait);
      }
      const Reference d = reference(data);
      if (d.median <= 0) continue;
      const double shortfall = d.median - by_edge[p].data_octets;
      const double z_data = shortfall / std::max(d.spread, rules.noise * d.median);
      if (z_data < rules.min_z || shortfall < rules.min_shortfall * d.median) continue;
      CounterSuspect s{p, g, by_edge[p].data_octets, d.median, by_edge[p].wait, -1, z_data, 0, 0};
      const bool waits_read = by_edge[p].wait >= 0 && !wait.empty();
      if (waits_read) {
        const Reference w = reference(wait);
        s.group_wait = w.median;
        s.z_wait = (by_edge[p].wait - w.median) / std::max({w.spread, rules.noise * w.median, 1.0});
        if (by_edge[p].wait <= w.median) continue;  // carried less without waiting more: fed less, not slow
      }
      s.confidence = std::min(1.0, z_data / (2 * rules.min_z)) * (s.z_wait >= rules.min_z ? 1.0 : 0.5);
      out.push_back(s);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const CounterSuspect& a, const CounterSuspect& b) { return a.confidence > b.confidence; });
  return out;
}

}  // namespace ibburn::localization
