#pragma once
// topo check: compares a discovered fabric with the site's wiring plan and reports every
// difference as a Finding, naming nodes as the site does (node-name-map names or inferred
// switch names, HCA node descriptions) and ports as 'name[port]'. Pure logic, no I/O.
//
// Kinds and severities (docs/topo-check.md):
//   critical  duplicate_guid, split
//   error     missing, miswired, swapped, port_down, missing_node, duplicate_name,
//             unreached, degraded (below the plan), unknown_node (switch), no_sm
//   warning   extra, degraded (below what both ends support only), unknown_node (CA),
//             port_not_active
//   as its members  systemic: most cables of a scope differ the same way (common/systemic_causes.h)
// Runs in time linear in nodes + ports + cables (hash maps, no pairwise loops).
#include <vector>

#include "common/finding.h"
#include "common/systemic_causes.h"
#include "topo/fabric.h"
#include "wiring/wiring.h"

namespace ibburn::topo_check {

struct CheckOptions {
  // How many discovery snapshots were merged (1 = one vantage point); said in messages
  // about planned nodes that no snapshot reached.
  int vantage_points = 1;
  // Also report links that trained below what both ends support (and are enabled for),
  // even when the plan's rate is met or the plan gives none.
  bool below_supported = true;
  // At most this many cables are named in a split finding's message (all are in details).
  size_t max_listed = 8;
  // When cable findings are one cause of a tier, rail, switch or the fabric.
  SystemicRule systemic;
};

std::vector<Finding> check_wiring(const topo::Fabric& discovered, const wiring::Wiring& plan,
                                  const CheckOptions& options = {});

}  // namespace ibburn::topo_check
