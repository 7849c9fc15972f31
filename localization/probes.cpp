#include "localization/probes.h"

#include <algorithm>

#include "fluid/fluid.h"

namespace ibburn::localization {
namespace {

// Work bounds per probe: a fabric with many slow flows needs a few of them per suspect.
constexpr size_t kMaxTiedSuspects = 64;
constexpr int kSlowFlowsPerSuspect = 4;

// Builds one stage of flows under the probe rules (each rank sends and receives once, no
// pair twice, no cable over capacity).
class ProbeStage {
 public:
  ProbeStage(const routing::CableIndex& cables, const routing::Router& router,
             const std::vector<topo::PortEnd>& endpoints, const RankPairs& used)
      : cables_(cables),
        router_(router),
        endpoints_(endpoints),
        taken_(used),
        sends_(endpoints.size(), 0),
        receives_(endpoints.size(), 0),
        load_(cables.size(), 0.0) {}

  // Adds src -> dst when it crosses a part of `tied` (not none, not all) not seen yet in
  // `signatures`.
  bool try_add(int src, int dst, const std::set<routing::EdgeId>& tied,
               std::set<std::vector<routing::EdgeId>>& signatures) {
    if (src == dst || sends_[src] || receives_[dst] || !endpoints_[src].valid() || !endpoints_[dst].valid() ||
        taken_.count({src, dst}))
      return false;
    fluid::FluidFlow f;
    try {
      f = fluid::fluid_flow(cables_, router_, endpoints_[src], endpoints_[dst]);
    } catch (const routing::RoutingError&) {
      return false;
    }
    std::vector<routing::EdgeId> part;
    for (auto [e, share] : f.path)
      if (share >= kMinShare && tied.count(e)) part.push_back(e);
    std::sort(part.begin(), part.end());
    part.erase(std::unique(part.begin(), part.end()), part.end());
    if (part.empty() || part.size() == tied.size() || signatures.count(part)) return false;
    for (auto [e, share] : f.path)
      if (load_[e] + share * f.demand_gbps > cables_.edge(e).capacity_gbps * (1 + 1e-9)) return false;
    for (auto [e, share] : f.path) load_[e] += share * f.demand_gbps;
    sends_[src] = receives_[dst] = 1;
    taken_.insert({src, dst});
    signatures.insert(std::move(part));
    flows_.push_back({src, dst});
    return true;
  }
  std::vector<planner::PlannedFlow>& flows() { return flows_; }

 private:
  const routing::CableIndex& cables_;
  const routing::Router& router_;
  const std::vector<topo::PortEnd>& endpoints_;
  RankPairs taken_;
  std::vector<char> sends_, receives_;
  std::vector<double> load_;  // Gb/s asked of each edge
  std::vector<planner::PlannedFlow> flows_;
};

bool crosses(const routing::PathShares& path, routing::EdgeId e) {
  return std::any_of(path.begin(), path.end(), [&](auto es) { return es.first == e && es.second >= kMinShare; });
}

}  // namespace

std::vector<planner::PlannedFlow> tie_breaking_probe(const std::vector<Suspect>& suspects,
                                                     const std::vector<planner::PlannedFlow>& slow,
                                                     const routing::CableIndex& cables, const routing::Router& router,
                                                     const std::vector<topo::PortEnd>& endpoints,
                                                     const RankPairs& used) {
  ProbeStage stage(cables, router, endpoints, used);
  const int n = static_cast<int>(endpoints.size());
  size_t tied_seen = 0;
  routing::PathShares path;
  for (const Suspect& s : suspects) {
    if (s.confidence >= kConfident || s.tied.empty()) continue;
    if (++tied_seen > kMaxTiedSuspects) break;
    std::set<routing::EdgeId> tied(s.tied.begin(), s.tied.end());
    tied.insert(s.edge);
    std::set<std::vector<routing::EdgeId>> signatures;
    int slow_used = 0;
    for (const planner::PlannedFlow& f : slow) {
      if (slow_used == kSlowFlowsPerSuspect || signatures.size() >= tied.size()) break;
      if (!endpoints[f.src].valid() || !endpoints[f.dst].valid()) continue;
      path.clear();
      try {
        router.route(endpoints[f.src], endpoints[f.dst], path);
      } catch (const routing::RoutingError&) {
        continue;
      }
      if (!crosses(path, s.edge)) continue;
      ++slow_used;
      // Other senders towards the same receiver, and the same sender towards others: each
      // keeps part of the slow path and leaves the rest.
      for (int k = 1; k < n && signatures.size() < tied.size(); ++k) {
        stage.try_add((f.src + k) % n, f.dst, tied, signatures);
        stage.try_add(f.src, (f.dst + k) % n, tied, signatures);
      }
    }
  }
  return std::move(stage.flows());
}

std::vector<planner::PlannedFlow> ProbeShifts::next() {
  const int n = static_cast<int>(order_.size());
  // Shifts +1, -1, +2, -2, ...: step j gives (j / 2 + 1) forward on even j, backward on odd.
  while (step_ < 2 * (n - 1)) {
    const int j = step_++;
    const int k = j % 2 == 0 ? j / 2 + 1 : n - (j / 2 + 1);
    if (k <= 0 || k >= n) continue;
    std::vector<planner::PlannedFlow> probe;
    for (int i = 0; i < n; ++i) {
      planner::PlannedFlow f{order_[i], order_[(i + k) % n]};
      if (!used_.count({f.src, f.dst})) probe.push_back(f);
    }
    if (probe.size() < static_cast<size_t>(n) / 2) continue;  // mostly repeats an earlier stage
    for (const auto& f : probe) used_.insert({f.src, f.dst});
    return probe;
  }
  return {};
}

std::vector<planner::PlannedFlow> next_probe(const std::vector<Suspect>& suspects,
                                             const std::vector<planner::PlannedFlow>& slow,
                                             const routing::CableIndex& cables, const routing::Router& router,
                                             const std::vector<topo::PortEnd>& endpoints, const RankPairs& used,
                                             ProbeShifts& shifts) {
  for (const auto& [s, d] : used) shifts.mark_used(s, d);
  std::vector<planner::PlannedFlow> probe = tie_breaking_probe(suspects, slow, cables, router, endpoints, used);
  if (probe.empty()) return shifts.next();
  for (const auto& f : probe) shifts.mark_used(f.src, f.dst);
  return probe;
}

}  // namespace ibburn::localization
