#pragma once
// Bandwidth over time (pure): per stage, the distribution of every flow direction's Gb/s in
// each second (median and spread) against line rate, and the slowest directions' own lines,
// so a flow that sagged mid-stage shows, not only its mean. From results.jsonl's per-second
// samples (burn/results.h).
#include <string>
#include <vector>

#include "burn/results.h"

namespace ibburn::report {

struct SecondSpread {
  int flows = 0;  // directions with a sample in this second
  double min = 0, p10 = 0, median = 0, p90 = 0, max = 0;
};

struct DirectionLine {
  std::string name;  // burn::direction_name
  std::vector<double> gbps;
  double lowest = 0;  // its slowest second
};

struct StageBandwidth {
  int stage = 0;
  std::string name;
  double line_rate = 0;  // the slower end's rate of the stage's fastest pair (0: unknown)
  std::vector<SecondSpread> seconds;
  std::vector<DirectionLine> slowest;  // lowest slowest-second first
};

// The p-quantile (0..1) of `values` by linear interpolation; 0 for none. Reorders `values`.
double quantile(std::vector<double>& values, double p);

// Directions that failed or were skipped carry no samples and are left out; `slowest` lines
// per stage at most.
std::vector<StageBandwidth> stage_bandwidth(const std::vector<burn::StageResult>& stages,
                                            const std::vector<burn::EndpointInfo>& endpoints, size_t slowest = 5);

}  // namespace ibburn::report
