#pragma once
// A wiring list taken from a golden fabric (one known to be cabled right): the plan that
// later checks compare the live fabric with.
#include <string>

#include "topo/fabric.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {

// A node's name in a wiring list: Node::name (the node-name-map name), else its description.
const std::string& name_of(const topo::Node& n);

// Every link once, ends named by name_of, rate = the trained width and speed (unknown = any).
// HCA ends come first, then links are in the fabric's order. Throws Error(kExitInput) when
// two cabled nodes share a name (a plan could not tell them apart: give a node-name-map) or a
// cabled node has no name.
Wiring wiring_from_fabric(const topo::Fabric& fabric, const std::string& origin);

}  // namespace ibburn::wiring
