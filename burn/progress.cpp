#include "burn/progress.h"

#include <algorithm>

#include <fmt/format.h>

#include "burn/results.h"

namespace ibburn::burn {

std::string progress_line(int stage, int stages, const std::string& name, double elapsed_s, double duration_s,
                          const std::vector<LiveRate>& rates, const std::vector<EndpointInfo>& endpoints,
                          std::size_t slowest) {
  double total = 0;
  for (const auto& r : rates) total += r.gbps;
  std::string line = fmt::format("burn: stage {}/{} \"{}\" {:.0f}s/{:.0f}s  {} directions  aggregate {:.2f} Gb/s",
                                 stage, stages, name, elapsed_s, duration_s, rates.size(), total);
  std::vector<LiveRate> sorted = rates;
  std::sort(sorted.begin(), sorted.end(), [](const LiveRate& a, const LiveRate& b) {
    return a.gbps != b.gbps ? a.gbps < b.gbps : (a.from != b.from ? a.from < b.from : a.to < b.to);
  });
  if (!sorted.empty()) {
    line += "  slowest: ";
    for (std::size_t i = 0; i < std::min(slowest, sorted.size()); ++i)
      line += fmt::format("{}{} {:.2f} Gb/s", i ? ", " : "", direction_name(endpoints, sorted[i].from, sorted[i].to),
                          sorted[i].gbps);
  }
  return line;
}

}  // namespace ibburn::burn
