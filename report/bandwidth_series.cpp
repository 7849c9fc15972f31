#include "report/bandwidth_series.h"

#include <algorithm>
#include <cmath>

namespace ibburn::report {

double quantile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double at = p * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(at));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (at - static_cast<double>(lo));
}

std::vector<StageBandwidth> stage_bandwidth(const std::vector<burn::StageResult>& stages,
                                            const std::vector<burn::EndpointInfo>& endpoints, size_t slowest) {
  auto rate = [&](int rank) {
    return rank >= 0 && rank < static_cast<int>(endpoints.size()) ? endpoints[rank].rate_gbps : 0.0;
  };
  std::vector<StageBandwidth> out;
  for (const auto& st : stages) {
    StageBandwidth b;
    b.stage = st.index, b.name = st.name;
    std::vector<DirectionLine> lines;
    for (const auto& f : st.flows)
      for (const auto& d : f.directions) {
        if (d.samples_gbps.empty()) continue;
        b.line_rate = std::max(b.line_rate, std::min(rate(d.from), rate(d.to)));
        lines.push_back({burn::direction_name(endpoints, d.from, d.to), d.samples_gbps,
                         *std::min_element(d.samples_gbps.begin(), d.samples_gbps.end())});
      }
    size_t seconds = 0;
    for (const auto& l : lines) seconds = std::max(seconds, l.gbps.size());
    for (size_t t = 0; t < seconds; ++t) {
      std::vector<double> v;
      for (const auto& l : lines)
        if (t < l.gbps.size()) v.push_back(l.gbps[t]);
      SecondSpread s;
      s.flows = static_cast<int>(v.size());
      s.p10 = quantile(v, 0.1), s.median = quantile(v, 0.5), s.p90 = quantile(v, 0.9);
      s.min = v.front(), s.max = v.back();  // sorted by quantile
      b.seconds.push_back(s);
    }
    const size_t k = std::min(slowest, lines.size());
    std::partial_sort(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(k), lines.end(),
                      [](const DirectionLine& x, const DirectionLine& y) { return x.lowest < y.lowest; });
    lines.resize(k);
    b.slowest = std::move(lines);
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace ibburn::report
