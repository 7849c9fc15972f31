#pragma once
// The routing validation's options, shared by `topo routes` and `run`: --per-vl, --vls,
// --save-vls, --balance-ratio.
#include <CLI/CLI.hpp>

#include "route_check/routes_command.h"

namespace ibburn::app {

void add_route_check_options(CLI::App& cmd, route_check::VlSource& vls, route_check::RouteCheckOptions& check);

}  // namespace ibburn::app
