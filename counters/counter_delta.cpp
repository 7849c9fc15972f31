#include "counters/counter_delta.h"

#include <map>
#include <utility>

namespace ibburn::counters {

double PortDelta::per_hour(Counter c) const { return hours > 0 ? static_cast<double>(delta.get(c)) / hours : 0; }

std::optional<double> PortDelta::per_terabyte(Counter c) const {
  if (!data_octets || *data_octets <= 0) return std::nullopt;
  return static_cast<double>(delta.get(c)) / (*data_octets / 1e12);
}

std::vector<PortDelta> compute_deltas(const Snapshot& before, const Snapshot& now) {
  std::map<SampleKey, const PortSample*> old;
  const std::vector<SampleKey> before_keys = sample_keys(before), now_keys = sample_keys(now);
  for (size_t i = 0; i < before.ports.size(); ++i)
    if (before.ports[i].reachable) old[before_keys[i]] = &before.ports[i];
  const double hours = static_cast<double>(now.time_ms - before.time_ms) / 3.6e6;
  std::vector<PortDelta> out;
  for (size_t k = 0; k < now.ports.size(); ++k) {
    const PortSample& p = now.ports[k];
    if (!p.reachable) continue;
    auto it = old.find(now_keys[k]);
    if (it == old.end()) continue;
    const CounterValues& a = it->second->counters;
    PortDelta d;
    d.now = &p;
    d.hours = hours > 0 ? hours : 0;
    for (size_t i = 0; i < kCounterCount; ++i) {
      Counter c = counter_at(i);
      if (!a.has(c) || !p.counters.has(c)) continue;
      uint64_t x = a.get(c), y = p.counters.get(c);
      if (y < x) d.reset = true;
      d.delta.set(c, y >= x ? y - x : y, p.counters.bits[i]);
    }
    d.data_octets = d.delta.data_octets();
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace ibburn::counters
