#pragma once
// Probe stages for localisation. A plan's permutation stages load each cable with one flow,
// so one slow flow implicates its whole path: the suspects come out tied (localization/localize.h).
// A probe stage adds evidence that splits the ties:
// - tie_breaking_probe(): for each tied suspect, flows that cross some but not all of the
//   tied cables (found by routing candidate pairs), so the next results tell them apart;
// - ProbeShifts: when no such flow exists, whole shift permutations of the ranks in switch
//   order by +1, -1, +2, -2, ..., pairing every rank with partners it has not met.
// Probe flows never ask a cable for more than its capacity, so a probe flow is slow only
// because of a cable's fault, not because the probe congested it.
#include <set>
#include <utility>
#include <vector>

#include "routing/cable_index.h"
#include "localization/localize.h"
#include "planner/planner.h"
#include "routing/routing.h"

namespace ibburn::localization {

using RankPairs = std::set<std::pair<int, int>>;

// `slow`: the slow directions so far (by rank); `endpoints`: rank -> HCA port (an invalid
// PortEnd for a rank outside the fabric); `used`: pairs already run. Each rank sends at most
// once and receives at most once. Empty when no suspect is tied or no flow splits a tie.
std::vector<planner::PlannedFlow> tie_breaking_probe(const std::vector<Suspect>& suspects,
                                                     const std::vector<planner::PlannedFlow>& slow,
                                                     const routing::CableIndex& cables, const routing::Router& router,
                                                     const std::vector<topo::PortEnd>& endpoints,
                                                     const RankPairs& used);

// Shifts of `order` (ranks in switch order) by +1, -1, +2, -2, ... Pairs in `used` are
// skipped (and the new ones added); a shift that would mostly repeat earlier pairs is passed
// over. Empty when no shift is left.
class ProbeShifts {
 public:
  explicit ProbeShifts(std::vector<int> order) : order_(std::move(order)) {}
  void mark_used(int src, int dst) { used_.insert({src, dst}); }
  std::vector<planner::PlannedFlow> next();

 private:
  std::vector<int> order_;
  RankPairs used_;
  int step_ = 0;
};

// The next probe stage: tie-breaking flows when there are any, else the next shift.
// Marks the probe's pairs used in `shifts`.
std::vector<planner::PlannedFlow> next_probe(const std::vector<Suspect>& suspects,
                                             const std::vector<planner::PlannedFlow>& slow,
                                             const routing::CableIndex& cables, const routing::Router& router,
                                             const std::vector<topo::PortEnd>& endpoints, const RankPairs& used,
                                             ProbeShifts& shifts);

}  // namespace ibburn::localization
