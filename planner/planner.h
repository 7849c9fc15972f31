#pragma once
// Burn planner: stages of flows such that every cable, in each direction, carries at least
// `cover_fraction` of its capacity in some stage and no cable is asked for more than
// `max_load`. Candidates are shift permutations over endpoints ordered by their switch,
// which are contention-free on non-blocking fat trees with the usual routing; each stage
// is chosen greedily for the most newly covered cables, and overloads are repaired by
// dropping the flows that cause them. Pure logic: routes come from a Router.
#include <string>
#include <vector>

#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::planner {

// One flow of a planned stage between ranks; the burn's own flow with its options is
// burn::Flow (burn/stage_plan.h), which to_burn_plan() produces from these.
struct PlannedFlow {
  int src = 0;  // rank
  int dst = 0;  // rank
  bool operator==(const PlannedFlow&) const = default;
};

struct PlanOptions {
  double cover_fraction = 0.9;
  double max_load = 1.0;
  int max_stages = 16;
  int max_candidates = 256;  // shift amounts evaluated per stage
};

struct EdgeCoverage {
  int stage = -1;        // first stage loading the edge >= cover_fraction; -1: never
  double best_load = 0;  // highest load fraction seen in any stage
};

struct PlanResult {
  std::vector<std::vector<PlannedFlow>> stages;
  std::vector<EdgeCoverage> coverage;  // indexed by EdgeId
  int lower_bound = 1;
  size_t covered = 0;              // edges with stage >= 0
  std::vector<std::string> notes;  // e.g. edges no route uses
};

// rank -> HCA port; every endpoint must be cabled. Each island (a plane of a cluster of several
// subnets) is planned over its own endpoints and its stages run together: no flow leaves its island.
PlanResult make_plan(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
                     const std::vector<topo::PortEnd>& endpoints, const PlanOptions& options);

// Stages needed at least under up*/down* routing: a switch can push up at most what
// enters it from below in one stage (tiers by distance from the HCAs).
int stage_lower_bound(const topo::Fabric& fabric, const routing::CableIndex& cables, double cover_fraction);

// Ranks ordered by the switch port their HCA hangs from, so a shift by k moves traffic
// across switches in a regular pattern (used by the planner and by simulation probes).
std::vector<int> switch_order(const topo::Fabric& fabric, const std::vector<topo::PortEnd>& endpoints);

// Every cabled CA port, ordered by name and port: the default endpoint list.
std::vector<topo::PortEnd> all_hca_ports(const topo::Fabric& fabric);

}  // namespace ibburn::planner
