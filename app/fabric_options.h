#pragma once
// The fabric options every command that takes a fabric shares, added by one call (the
// infiniband-diags idea of one common option table): --fabric FILE|live (repeatable),
// -C/--ca, -P/--port, --node-name-map and, unless the command owns those names, --hops,
// --timeout and --retries of live discovery.
#include <string>

#include <CLI/CLI.hpp>

#include "topo/fabric_source.h"

namespace ibburn::app {

struct FabricOptionSet {
  // False: live discovery only, no --fabric and no --node-name-map (`topo discover`).
  bool files = true;
  // Adds --hops/--timeout/--retries for discovery (off where --timeout means something else).
  bool discovery_knobs = true;
  // Name of a positional fabric argument taken instead of --fabric (`topo show FABRIC`).
  std::string positional;
  // What happens without --fabric, for the help text.
  std::string without = "discover live";

  FabricOptionSet& live_only() { return files = false, *this; }
  FabricOptionSet& no_discovery_knobs() { return discovery_knobs = false, *this; }
  FabricOptionSet& positional_name(std::string name) { return positional = std::move(name), *this; }
  FabricOptionSet& default_is(std::string what) { return without = std::move(what), *this; }
};

void add_fabric_options(CLI::App& cmd, topo::FabricSource& source, const FabricOptionSet& set = {});

}  // namespace ibburn::app
