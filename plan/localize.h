#pragma once
// Localisation: from per-flow results (slow or healthy, with their routes), name the
// cables that best explain the slow flows: on every slow flow's path and on no healthy
// flow's path. Greedy set cover, one suspect per group of slow flows it explains.
#include <string>
#include <vector>

#include "plan/cable_index.h"
#include "plan/routing.h"

namespace ibburn::plan {

struct ObservedFlow {
  PathShares path;
  bool slow = false;
};

struct Suspect {
  EdgeId edge = 0;
  double confidence = 0;     // 0..1
  size_t slow_explained = 0;  // slow flows through this cable
  size_t healthy_through = 0;  // healthy flows that also used it at full rate
};

// Shares below `min_share` (adaptive routing spreading a flow thin) do not implicate.
std::vector<Suspect> localize(const std::vector<ObservedFlow>& flows, size_t edge_count,
                              double min_share = 0.25);

}  // namespace ibburn::plan
