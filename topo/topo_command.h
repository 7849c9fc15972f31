#pragma once
// `ibburn topo discover` and `ibburn topo show` end to end. Return the exit code.
#include <iosfwd>
#include <string>

#include "topo/fabric_source.h"

namespace ibburn::topo {

// Discovers the live fabric and writes it to `output` (.json: JSON, else ibnetdiscover
// text); one line of counts on `err`.
int topo_discover_command(const DiscoverOptions& options, const std::string& output, std::ostream& err);

// The fabric's summary as text on `out`; with `json_out`, as JSON instead, to that file or,
// for "-", to `out`.
int topo_show_command(const FabricSource& source, const std::string& json_out, std::ostream& out);

}  // namespace ibburn::topo
