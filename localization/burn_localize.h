#pragma once
// Names the cables behind a burn's slow flows: the burn's endpoints (rank -> port GUID) and
// per-direction verdicts are mapped onto the fabric's routes and handed to localize().
// Offline from a results directory (`ibburn plan localize`), or live in the burn's own
// summary through RouteExplainer (`ibburn burn --fabric`), which also asks for probe
// stages while the culprit is ambiguous.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/session_observer.h"
#include "burn/summary.h"
#include "localization/localize.h"
#include "localization/probes.h"
#include "routing/route_model.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::localization {

struct BurnDirection {
  int from = 0, to = 0;
  burn::Verdict verdict = burn::Verdict::Unjudged;
};

struct BurnOutcome {
  std::vector<uint64_t> port_guid_by_rank;
  std::vector<BurnDirection> directions;
};

// From the endpoints (index = rank) and a summary's per-direction verdicts.
BurnOutcome burn_outcome(const std::vector<burn::EndpointInfo>& endpoints, const burn::BurnSummary& summary);

// Reads DIR/results.jsonl (the "run" line) and DIR/summary.json; InputError on bad content.
BurnOutcome load_burn_outcome(const std::string& dir);

struct RoutedDirection {
  int from = 0, to = 0;
  ObservedFlow observed;
};

struct RoutedBurn {
  std::vector<RoutedDirection> slow;  // with their paths
  HealthyEvidence healthy;            // summed only when some direction is slow
  // localize() on this evidence.
  std::vector<Suspect> localize() const;
};

// Directions judged "slow" or "failed" are slow evidence, "pass" healthy; others are
// ignored. `notes` receives the directions that could not be routed (unknown GUID...).
RoutedBurn route_burn(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
                      const BurnOutcome& outcome, std::vector<std::string>& notes);
std::vector<Suspect> localize_burn(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                   const routing::Router& router, const BurnOutcome& outcome,
                                   std::vector<std::string>& notes);

std::vector<burn::SuspectRecord> suspect_records(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                                 const std::vector<Suspect>& suspects);
nlohmann::json suspects_to_json(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                const std::vector<Suspect>& suspects);

// summary.json gains "suspects" (and "localization_notes"); each suspect is a finding of
// kind "suspect_cable" (an error when confident, a warning while ambiguous). An endpoint
// judged "suspect" only because its bad directions cross a confidently named cable passes,
// with "explained_by" naming the cable. Follow-up stages are probe shifts, at most
// `max_probes`, while any suspect is ambiguous.
class RouteExplainer : public burn::SessionObserver {
 public:
  // `port_guids`: rank -> HCA port GUID for ranks whose transport reports none (TCP over
  // IPoIB); empty = what each rank reported.
  RouteExplainer(std::shared_ptr<const routing::RouteModel> routes, int max_probes,
                 std::vector<uint64_t> port_guids = {});
  void explain(burn::Summary& summary, const std::vector<burn::EndpointInfo>& endpoints) override;
  std::optional<burn::Stage> follow_up(const burn::Summary& summary, const std::vector<burn::EndpointInfo>& endpoints,
                                       int extra_run) override;
  // Cable directions other evidence has named (the switches' port counters under adaptive
  // routing, localization/counter_localize.h). A slow direction whose route crosses one, with any
  // share, is that cable's doing: it implicates no other cable, asks for no probe, and an
  // endpoint whose every bad direction is such passes (`explained_by`), slow or suspect.
  void set_named_elsewhere(std::set<routing::EdgeId> edges) { named_elsewhere_ = std::move(edges); }

 private:
  BurnOutcome outcome(const burn::Summary& summary, const std::vector<burn::EndpointInfo>& endpoints) const;
  // `results` on their routes, less the slow directions named_elsewhere_ explains; `explained`
  // gets the ranks whose every bad direction it explains, with the cables.
  RoutedBurn route_outcome(const BurnOutcome& results, std::vector<std::string>& notes,
                           std::map<int, std::set<routing::EdgeId>>* explained) const;
  std::shared_ptr<const routing::RouteModel> routes_;
  int max_probes_;
  std::vector<uint64_t> port_guids_;
  std::vector<topo::PortEnd> ports_;  // by rank; made at the first follow-up
  std::unique_ptr<ProbeShifts> shifts_;
  std::set<routing::EdgeId> named_elsewhere_;
};

}  // namespace ibburn::localization
