#include "topo_check/topo_check.h"

#include "topo_check/check_planes.h"
#include "topo_check/check_wiring.h"

namespace ibburn::topo_check {

TopoCheck check_topology(topo::Fabric& fabric, const wiring::Wiring& wiring, int vantage_points, bool infer_names) {
  TopoCheck out;
  if (infer_names) out.names = wiring::name_switches_from_plan(fabric, wiring);
  CheckOptions options;
  options.vantage_points = vantage_points;
  assign_planes(fabric, wiring);
  out.findings = check_wiring(fabric, wiring, options);
  for (Finding& f : check_planes(fabric, wiring)) out.findings.push_back(std::move(f));
  return out;
}

}  // namespace ibburn::topo_check
