#pragma once
// Localisation: from per-flow results (slow or healthy, with their routes), name the
// cables that best explain the slow flows: on every slow flow's path and on no healthy
// flow's path. Greedy set cover, one suspect per group of slow flows it explains. When the
// evidence leaves a tie, probe stages (localization/probes.h) add evidence that splits it.
#include <string>
#include <vector>

#include "routing/cable_index.h"
#include "routing/routing.h"

namespace ibburn::localization {

struct ObservedFlow {
  routing::PathShares path;
  bool slow = false;
};

struct Suspect {
  routing::EdgeId edge = 0;
  // 0..1: the share of the evidence through this cable that is slow, divided among the
  // cables that carried exactly the same evidence (ties).
  double confidence = 0;
  size_t slow_explained = 0;          // slow flows through this cable
  size_t healthy_through = 0;         // healthy flows that also used it at full rate
  std::vector<routing::EdgeId> tied;  // other cables with exactly the same evidence
};

// A flow implicates (or clears) a cable it crosses with at least this share of its
// traffic: all of it on static routes, a slice of it under adaptive routing.
constexpr double kMinShare = 0.01;
std::vector<Suspect> localize(const std::vector<ObservedFlow>& flows, size_t edge_count, double min_share = kMinShare);

// What the healthy flows say about each cable, summed flow by flow so that no healthy flow's
// path need be kept (32k flows of ~2,000 edges each under adaptive routing).
struct HealthyEvidence {
  explicit HealthyEvidence(size_t edge_count, double at_least = kMinShare)
      : min_share(at_least), share(edge_count, 0.0), flows(edge_count, 0) {}
  // `times` healthy flows over `path`.
  void add(const routing::PathShares& path, size_t times = 1);
  double min_share;
  std::vector<double> share;  // per edge: summed shares of healthy flows (at >= min_share)
  std::vector<size_t> flows;  // per edge: how many healthy flows crossed it (at >= min_share)
};
// The same from the slow flows and the healthy flows' evidence.
std::vector<Suspect> localize(const std::vector<const ObservedFlow*>& slow, const HealthyEvidence& healthy);

// Below this a suspect shares the blame with other cables (ties) or with healthy traffic.
constexpr double kConfident = 0.75;
bool ambiguous(const std::vector<Suspect>& suspects);

}  // namespace ibburn::localization
