#pragma once
// What `ibburn plan` reads and writes besides the fabric: the endpoints file (rank ->
// HCA port GUID), the burn plan (burn/stage_plan.h format) and the coverage proof.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/stage_plan.h"
#include "planner/planner.h"
#include "plan/simulate.h"

namespace ibburn::plan {

// Endpoints file: one endpoint per line, `RANK PORT_GUID` or just `PORT_GUID` (rank = order
// of appearance); '#' comments. Or a burn's results.jsonl: the ranks' ports as that burn
// learnt them (its first line). Every GUID must be a cabled CA port of the fabric.
std::vector<topo::PortEnd> parse_endpoints(const std::string& text, const std::string& origin,
                                           const topo::Fabric& fabric);

// The ranks' HCA ports, in rank order, and whether an endpoints file named them.
struct Endpoints {
  std::vector<topo::PortEnd> ports;
  bool given = false;
};
// `file` (--endpoints, parse_endpoints) when one is named, else every cabled CA port
// (all_hca_ports). Throws InputError naming the file.
Endpoints load_endpoints(const std::string& file, const topo::Fabric& fabric);
// Rank -> port GUID of endpoints a file named (empty otherwise): what the localisation
// falls back on for ranks whose transport reports no port GUID (RouteExplainer).
std::vector<uint64_t> given_port_guids(const Endpoints& endpoints, const topo::Fabric& fabric);

burn::Plan to_burn_plan(const planner::PlanResult& result, const std::string& name);

// Per cable and direction: the stage loading it and the expected load; plus totals.
nlohmann::json coverage_proof(const topo::Fabric& fabric, const routing::CableIndex& cables,
                              const planner::PlanResult& result);

nlohmann::json simulation_to_json(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                  const std::vector<topo::PortEnd>& endpoints, const SimulationReport& report);

}  // namespace ibburn::plan
