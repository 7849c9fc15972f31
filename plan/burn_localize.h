#pragma once
// Names the cables behind a real burn's slow flows: the burn's endpoints (rank -> port
// GUID, first line of results.jsonl) and per-direction verdicts (summary.json) are mapped
// onto the fabric's routes and handed to localize().
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/localize.h"
#include "plan/routing.h"
#include "topo/fabric.h"

namespace ibburn::plan {

struct BurnDirection {
  int from = 0, to = 0;
  std::string verdict;  // "pass", "slow", "failed", ...
};

struct BurnOutcome {
  std::vector<uint64_t> port_guid_by_rank;
  std::vector<BurnDirection> directions;
};

// Reads DIR/results.jsonl (the "run" line) and DIR/summary.json; InputError on bad content.
BurnOutcome load_burn_outcome(const std::string& dir);

// Directions judged "slow" or "failed" are slow evidence, "pass" healthy; others are
// ignored. `notes` receives the directions that could not be routed (unknown GUID...).
std::vector<Suspect> localize_burn(const topo::Fabric& fabric, const CableIndex& cables,
                                   const Router& router, const BurnOutcome& outcome,
                                   std::vector<std::string>& notes);

nlohmann::json suspects_to_json(const topo::Fabric& fabric, const CableIndex& cables,
                                const std::vector<Suspect>& suspects);

}  // namespace ibburn::plan
