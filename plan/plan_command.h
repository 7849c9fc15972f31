#pragma once
// `ibburn plan` and `ibburn plan localize` end to end: the route model, the plan, its proof
// and simulation, the suspects of a burn's slow flows; files written, a summary on `out`,
// the exit code returned.
#include <iosfwd>
#include <string>
#include <vector>

#include "routing/route_model.h"

namespace ibburn::plan {

struct PlanCommandOptions {
  routing::RouteOptions routes;
  std::string endpoints;  // rank -> port GUID file or results.jsonl; empty: every HCA port
  std::string out;        // plan JSON for `ibburn burn --plan`
  std::string proof;      // coverage proof JSON
  double cover = 0.9;
  int max_stages = 16;
  bool simulate = false;
  std::vector<std::string> degrade;  // NODE[PORT]=FRACTION, with simulate
  std::string simulation_out;        // JSON of slow flows and suspects, with simulate
};

// 1 when a cable direction stays unburned or the simulation has slow flows.
int plan_command(const PlanCommandOptions& options, std::ostream& out);

// Reads DIR/results.jsonl and DIR/summary.json, writes DIR/suspects.json; suspects on
// `out`, notes on `err`. 1 when some cable is suspected.
int plan_localize_command(const routing::RouteOptions& routes, const std::string& dir, std::ostream& out,
                          std::ostream& err);

}  // namespace ibburn::plan
