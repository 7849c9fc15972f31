#pragma once
// The `ibburn wiring` commands end to end (design files of a fat tree, a wiring list from a
// golden fabric, switch names from the plan): files written, a summary on `out`, the exit
// code returned.
#include <iosfwd>
#include <string>

#include "topo/fabric_source.h"
#include "wiring/fat_tree.h"

namespace ibburn::wiring {

struct FatTreeGenOptions {
  FatTreeSpec spec;  // preset and options already resolved
  bool generic_switch_descriptions = false;
  std::string prefix;  // PREFIX.csv, PREFIX.net, PREFIX.node-name-map
};
int wiring_gen_command(const FatTreeGenOptions& options, std::ostream& out);

struct FromFabricOptions {
  topo::FabricSource fabric;
  std::string out;  // wiring CSV
};
int wiring_from_fabric_command(const FromFabricOptions& options, std::ostream& out);

struct NameSwitchesOptions {
  topo::FabricSource fabric;
  std::string wiring;  // wiring CSV (the plan)
  std::string out;     // node-name-map, confidence as a trailing comment
};
// 1 when some switch stays unnamed.
int wiring_name_switches_command(const NameSwitchesOptions& options, std::ostream& out);

}  // namespace ibburn::wiring
