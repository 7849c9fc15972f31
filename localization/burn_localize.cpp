#include "localization/burn_localize.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "burn/results.h"
#include "localization/endpoint_names.h"
#include "localization/probes.h"
#include "localization/suspect_cable_details.h"

#include "common/error.h"
#include "common/file_io.h"
#include "topo/fabric_summary.h"

namespace ibburn::localization {

namespace {

// Ranks whose every bad direction crosses one of `culprits` with at least `min_share` of its
// traffic: their verdict is the cable's doing.
std::map<int, std::set<routing::EdgeId>> explained_ranks(const std::vector<RoutedDirection>& routed,
                                                         const std::set<routing::EdgeId>& culprits,
                                                         double min_share = 0) {
  std::map<int, std::set<routing::EdgeId>> by;
  std::set<int> unexplained;
  for (const auto& r : routed) {
    if (!r.observed.slow) continue;
    std::set<routing::EdgeId> hit;
    for (auto [e, share] : r.observed.path)
      if (share > min_share && culprits.count(e)) hit.insert(e);
    for (int rank : {r.from, r.to}) {
      if (hit.empty())
        unexplained.insert(rank);
      else
        by[rank].insert(hit.begin(), hit.end());
    }
  }
  for (int rank : unexplained) by.erase(rank);
  return by;
}

}  // namespace

BurnOutcome burn_outcome(const std::vector<burn::EndpointInfo>& endpoints, const burn::BurnSummary& summary) {
  BurnOutcome out;
  for (const auto& e : endpoints) out.port_guid_by_rank.push_back(e.port_guid);
  for (const auto& f : summary.flows) out.directions.push_back({f.from, f.to, f.verdict});
  return out;
}

BurnOutcome load_burn_outcome(const std::string& dir) {
  const std::string results = dir + "/results.jsonl", summary = dir + "/summary.json";
  return burn_outcome(burn::read_run_endpoints(read_file(results), results), burn::load_summary(summary));
}

RoutedBurn route_burn(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
                      const BurnOutcome& outcome, std::vector<std::string>& notes) {
  const auto by_guid = topo::hca_ports_by_guid(fabric);
  auto endpoint = [&](int rank) -> const topo::PortEnd* {
    if (rank < 0 || static_cast<size_t>(rank) >= outcome.port_guid_by_rank.size()) return nullptr;
    auto it = by_guid.find(outcome.port_guid_by_rank[rank]);
    return it == by_guid.end() ? nullptr : &it->second;
  };
  auto is_slow = [](const BurnDirection& d) {
    return d.verdict == burn::Verdict::Slow || d.verdict == burn::Verdict::Failed;
  };
  // Healthy evidence only matters when something is slow; without it, healthy directions
  // are only checked for a route (for the notes).
  const bool any_slow = std::any_of(outcome.directions.begin(), outcome.directions.end(), is_slow);
  RoutedBurn out{{}, HealthyEvidence(any_slow ? cables.size() : 0)};
  // Healthy directions through the same split share its path: spread once per split.
  std::map<std::pair<topo::NodeId, topo::NodeId>, size_t> healthy_splits;
  routing::SplitRoute split;
  for (const auto& d : outcome.directions) {
    bool slow = is_slow(d);
    if (!slow && d.verdict != burn::Verdict::Pass) continue;
    const topo::PortEnd* a = endpoint(d.from);
    const topo::PortEnd* b = endpoint(d.to);
    if (!a || !b) {
      notes.push_back("rank " + std::to_string(a ? d.to : d.from) + " has no port GUID of this fabric");
      continue;
    }
    RoutedDirection r{d.from, d.to, {{}, slow}};
    try {
      if (slow)
        router.route(*a, *b, r.observed.path);
      else
        router.route_split(*a, *b, split);
    } catch (const routing::RoutingError& e) {
      notes.push_back(e.what());
      continue;
    }
    if (slow) {
      out.slow.push_back(std::move(r));
    } else if (any_slow) {
      out.healthy.add(split.edges);
      if (split.split()) ++healthy_splits[{split.from, split.to}];
    }
  }
  routing::SplitSpread spread;
  routing::PathShares path;
  for (const auto& [ends, times] : healthy_splits) {
    spread.spread(router, ends.second, {{ends.first, 1.0}});
    path.clear();
    for (const auto& c : spread.carried()) path.emplace_back(c.edge, c.gbps);
    out.healthy.add(path, times);
  }
  return out;
}

std::vector<Suspect> RoutedBurn::localize() const {
  std::vector<const ObservedFlow*> observed;
  for (const auto& r : slow) observed.push_back(&r.observed);
  return localization::localize(observed, healthy);
}

std::vector<Suspect> localize_burn(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                   const routing::Router& router, const BurnOutcome& outcome,
                                   std::vector<std::string>& notes) {
  return route_burn(fabric, cables, router, outcome, notes).localize();
}

std::vector<burn::SuspectRecord> suspect_records(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                                 const std::vector<Suspect>& suspects) {
  std::vector<burn::SuspectRecord> out;
  for (const auto& s : suspects) {
    burn::SuspectRecord r{cables.describe(fabric, s.edge),
                          fabric.port_name(cables.edge(s.edge).from),
                          fabric.port_name(cables.edge(s.edge).to),
                          s.confidence,
                          static_cast<int>(s.slow_explained),
                          static_cast<int>(s.healthy_through),
                          {}};
    for (routing::EdgeId e : s.tied) r.tied_with.push_back(cables.describe(fabric, e));
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json suspects_to_json(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                const std::vector<Suspect>& suspects) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& r : suspect_records(fabric, cables, suspects)) arr.push_back(burn::to_json(r));
  return arr;
}

RouteExplainer::RouteExplainer(std::shared_ptr<const routing::RouteModel> routes, int max_probes,
                               std::vector<uint64_t> port_guids)
    : routes_(std::move(routes)), max_probes_(max_probes), port_guids_(std::move(port_guids)) {}

BurnOutcome RouteExplainer::outcome(const burn::Summary& summary,
                                    const std::vector<burn::EndpointInfo>& endpoints) const {
  BurnOutcome o = burn_outcome(endpoints, summary.doc);
  for (size_t r = 0; r < o.port_guid_by_rank.size() && r < port_guids_.size(); ++r)
    if (!o.port_guid_by_rank[r]) o.port_guid_by_rank[r] = port_guids_[r];
  return o;
}

RoutedBurn RouteExplainer::route_outcome(const BurnOutcome& results, std::vector<std::string>& notes,
                                         std::map<int, std::set<routing::EdgeId>>* explained) const {
  RoutedBurn r = route_burn(routes_->fabric, *routes_->cables, *routes_->router, results, notes);
  if (named_elsewhere_.empty()) return r;
  if (explained) *explained = explained_ranks(r.slow, named_elsewhere_);
  std::erase_if(r.slow, [&](const RoutedDirection& d) {
    return std::any_of(d.observed.path.begin(), d.observed.path.end(),
                       [&](const auto& hop) { return hop.second > 0 && named_elsewhere_.count(hop.first); });
  });
  return r;
}

void RouteExplainer::explain(burn::Summary& summary, const std::vector<burn::EndpointInfo>& endpoints) {
  std::vector<std::string> notes;
  const topo::Fabric& fabric = routes_->fabric;
  const routing::CableIndex& cables = *routes_->cables;
  std::map<int, std::set<routing::EdgeId>> by_elsewhere;
  const BurnOutcome results = outcome(summary, endpoints);
  const RoutedBurn routed = route_outcome(results, notes, &by_elsewhere);
  auto found = routed.localize();
  std::sort(notes.begin(), notes.end());
  notes.erase(std::unique(notes.begin(), notes.end()), notes.end());
  summary.doc.suspects = suspect_records(fabric, cables, found);
  summary.doc.localization_notes = notes;
  std::set<routing::EdgeId> confident;
  for (const auto& s : found) {
    if (s.confidence >= kConfident) confident.insert(s.edge);
    const routing::Edge& e = cables.edge(s.edge);
    Finding f;
    f.kind = FindingKind::SuspectCable;
    f.severity = s.confidence >= kConfident ? Severity::Error : Severity::Warning;
    f.message = fmt::format("cable {} explains {} slow flow(s), {} healthy flow(s) crossed it (confidence {:.0f}%)",
                            cables.describe(fabric, s.edge), s.slow_explained, s.healthy_through, 100 * s.confidence);
    for (size_t i = 0; i < s.tied.size() && i < 3; ++i)
      f.message += (i == 0 ? "; the same evidence fits " : ", ") + cables.describe(fabric, s.tied[i]);
    if (s.tied.size() > 3) f.message += fmt::format(" and {} more", s.tied.size() - 3);
    // Traffic cannot tell a host link from the HCA (or the host's PCIe path) behind it.
    for (topo::PortEnd end : {e.from, e.to})
      if (fabric.node(end.node).is_ca())
        f.message += "; or the HCA " + fabric.node(end.node).name + " itself (see the host check)";
    f.ports = {{fabric.node(e.from.node).name, e.from.port}, {fabric.node(e.to.node).name, e.to.port}};
    f.details = SuspectCableDetails{.flows = (*summary.doc.suspects)[&s - found.data()]};
    summary.findings.push_back(std::move(f));
    summary.doc.pass = false;
  }
  const auto explained = explained_ranks(routed.slow, confident);
  auto explains = [&](const burn::EndpointRecord& ep) -> const std::set<routing::EdgeId>* {
    if (ep.verdict == burn::Verdict::Suspect && explained.count(ep.rank)) return &explained.at(ep.rank);
    const bool bad = ep.verdict == burn::Verdict::Suspect || ep.verdict == burn::Verdict::Slow;
    if (bad && by_elsewhere.count(ep.rank)) return &by_elsewhere.at(ep.rank);
    return nullptr;
  };
  std::set<int> passed;
  for (auto& ep : summary.doc.endpoints)
    if (const auto* by = explains(ep)) {
      ep.verdict = burn::Verdict::Pass;
      for (routing::EdgeId e : *by) ep.explained_by.push_back(cables.describe(fabric, e));
      passed.insert(ep.rank);
    }
  std::erase_if(summary.findings, [&](const Finding& f) {
    return (f.kind == FindingKind::SuspectEndpoint || f.kind == FindingKind::SlowEndpoint) &&
           passed.count(details_of<FindingKind::SuspectEndpoint, FindingKind::SlowEndpoint>(f).rank);
  });
  name_endpoint_findings(summary.findings, fabric, results.port_guid_by_rank);
}

std::optional<burn::Stage> RouteExplainer::follow_up(const burn::Summary& summary,
                                                     const std::vector<burn::EndpointInfo>& endpoints, int extra_run) {
  if (extra_run >= max_probes_) return std::nullopt;
  const topo::Fabric& fabric = routes_->fabric;
  std::vector<std::string> notes;
  const BurnOutcome now = outcome(summary, endpoints);
  auto found = route_outcome(now, notes, nullptr).localize();
  if (found.empty() || !ambiguous(found)) return std::nullopt;
  if (!shifts_) {
    // Each rank's port in the fabric (invalid when its GUID is not there); shifts over those
    // ranks in switch order.
    const auto by_guid = topo::hca_ports_by_guid(fabric);
    std::vector<topo::PortEnd> known;
    std::vector<int> rank_of;
    ports_.assign(endpoints.size(), topo::PortEnd{});
    for (int r = 0; r < static_cast<int>(endpoints.size()); ++r)
      if (auto it = by_guid.find(now.port_guid_by_rank[r]); it != by_guid.end()) {
        ports_[r] = it->second;
        known.push_back(it->second);
        rank_of.push_back(r);
      }
    std::vector<int> order;
    for (int i : planner::switch_order(fabric, known)) order.push_back(rank_of[i]);
    shifts_ = std::make_unique<ProbeShifts>(std::move(order));
  }
  RankPairs used;
  std::vector<planner::PlannedFlow> slow;
  for (const auto& f : summary.doc.flows) {
    planner::PlannedFlow flow{f.from, f.to};
    used.insert({flow.src, flow.dst});
    if (f.verdict == burn::Verdict::Slow || f.verdict == burn::Verdict::Failed) slow.push_back(flow);
  }
  std::vector<planner::PlannedFlow> probe =
      next_probe(found, slow, *routes_->cables, *routes_->router, ports_, used, *shifts_);
  if (probe.empty()) return std::nullopt;
  burn::Stage st;
  st.name = fmt::format("probe {}", extra_run + 1);
  for (const auto& f : probe) st.flows.push_back({f.src, f.dst, false, 0});
  return st;
}

}  // namespace ibburn::localization
