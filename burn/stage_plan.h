#pragma once
// A burn plan: stages run one after another; within a stage every flow runs at once.
// Written by `ibburn plan` (or by hand), read by `ibburn burn --plan`. Format in docs/burn.md:
//   {"version": 1, "name": "...", "stages": [
//      {"name": "shift 1", "flows": [{"src": 0, "dst": 4, "bidirectional": true, "streams": 4}]}]}
// Built-in patterns (pairs, shift:K, one-to-one) produce the same structure.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ibburn::burn {

struct Flow {
  int src = 0;                // rank that sends (and receives too when bidirectional)
  int dst = 0;                // rank that receives
  bool bidirectional = true;  // both ends send and receive at once
  int streams = 0;            // TCP streams / RC QPs; 0 = the run's --streams default
  bool operator==(const Flow&) const = default;
};

struct Stage {
  std::string name;
  std::vector<Flow> flows;
};

struct Plan {
  std::string name;
  std::vector<Stage> stages;
};

// Parses and validates a plan against the job size: ranks within [0, ranks), src != dst,
// streams >= 0, at least one stage. A rank may be in several flows of one stage (shift
// patterns need it). Throws InputError(file, 0, "stage 2 flow 5: dst 9 >= 8 ranks").
Plan plan_from_json(const nlohmann::json& j, int ranks, const std::string& file);
Plan load_plan(const std::string& path, int ranks);
nlohmann::json to_json(const Plan& p);

// Built-in patterns. "pairs": r <-> r + N/2 (N even). "shift:K": K stages, stage k (1..K)
// has r -> (r + k) mod N for every r. "one-to-one": N-1 rounds (N even; an odd N gets a
// bye per round) of disjoint bidirectional pairs, the round-robin "circle" schedule, so
// every pair of ranks meets exactly once. Throws InputError("--pattern", 0, reason).
Plan make_pattern(const std::string& pattern, int ranks, int streams);

}  // namespace ibburn::burn
