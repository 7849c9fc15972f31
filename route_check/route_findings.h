#pragma once
// `topo routes`' judgement (pure): the walk of every route (route_walk.h), its credit loops
// (credit_loops.h) and the equal ports' balance (route_balance.h) as findings, and what was
// looked at.
#include <string>
#include <vector>

#include "common/finding.h"
#include "route_check/vl_tables.h"
#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::route_check {

struct RouteCheckOptions {
  double balance_ratio = 1.5;  // a group of equal ports is unbalanced past this max over min
};

struct RouteCheck {
  std::vector<Finding> findings;
  int vl_count = 1;         // the graphs judged (VLs the SL2VL tables use; 1 without them)
  bool tree = false;        // turns and detours were judged
  size_t destinations = 0;  // HCA LIDs
  size_t channels = 0, dependencies = 0;
  size_t port_groups = 0;
  uint64_t steps = 0;
};

// `vls` null: every route on one VL.
RouteCheck check_routes(const topo::Fabric& fabric, const routing::CableIndex& cables,
                        const routing::ForwardingTables& lfts, const VlTables* vls, const RouteCheckOptions& options);

// "12 HCA LIDs, 3 switches' tables; one VL: 40 channels, 96 dependencies; ..." for the terminal.
std::string describe(const RouteCheck& check);

}  // namespace ibburn::route_check
