#pragma once
// The topo check's sequence, one place for `ibburn topo check` and `ibburn run`: on a fabric
// already loaded, name the switches the wiring list can name (wiring/name_inference.h), then
// report every difference from the list (check/check.h), counting the snapshots the fabric
// was merged from as vantage points; with a plan of several planes, tell each subnet's plane
// and judge the planes (check_planes.h). Pure logic, no I/O.
#include <vector>

#include "common/finding.h"
#include "topo/fabric.h"
#include "wiring/name_inference.h"
#include "wiring/wiring.h"

namespace ibburn::topo_check {

struct TopoCheck {
  wiring::NameInference names;  // the names inferred (empty when not asked to)
  std::vector<Finding> findings;
};

// `fabric` keeps the inferred names and its subnets' planes (the report and the later steps
// name switches by them, and keep flows within a plane).
TopoCheck check_topology(topo::Fabric& fabric, const wiring::Wiring& wiring, int vantage_points,
                         bool infer_names = true);

}  // namespace ibburn::topo_check
