#pragma once
// `ibburn topo check` end to end: load the wiring list, load or discover the fabric (merged
// from several islands' snapshots), name switches from the plan, check, print the summary,
// write the findings. Returns the exit code.
#include <cstddef>
#include <iosfwd>
#include <string>

#include "topo/fabric_source.h"

namespace ibburn::topo_check {

struct TopoCheckCommandOptions {
  topo::FabricSource fabric;
  std::string wiring;       // wiring CSV (the plan)
  std::string json_out;     // {"findings": [...]}; empty: none
  bool infer_names = true;  // name switches whose names are not in the plan
  size_t max_details = 20;  // details shown per kind (0 = all)
};

// Summary on `out`, a note about inferred switch names on `err`.
int topo_check_command(const TopoCheckCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ibburn::topo_check
