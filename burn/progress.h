#pragma once
// The per-second progress line rank 0 prints: stage i/n, aggregate rate, slowest directions
// (named by host and endpoint, burn/results.h direction_name).
#include <string>
#include <vector>

#include "burn/transport.h"

namespace ibburn::burn {

struct LiveRate {
  int from = 0;
  int to = 0;
  double gbps = 0;  // over the last second
};

std::string progress_line(int stage, int stages, const std::string& name, double elapsed_s, double duration_s,
                          const std::vector<LiveRate>& rates, const std::vector<EndpointInfo>& endpoints,
                          std::size_t slowest = 3);

}  // namespace ibburn::burn
