#pragma once
// Forwarding tables from the files sites already have (pure parsing): ibdiagnet's
// `ibdiagnet2.fdbs` and opensm's `opensm.fdbs` (one block per switch, "dump_ucast_routes:
// Switch 0x<guid>", then "0x<lid> : <port> : <hops> : <optimal>" or "0x<lid> : UNREACHABLE"),
// opensm's `opensm-lfts.dump` ("Unicast lids [..] of switch Lid n guid 0x<guid> (..):", then
// "0x<lid> <port> ..."), and ibburn's own --save-lfts JSON. Which one is told by the content.
#include <string>
#include <string_view>

#include "routing/routing.h"

namespace ibburn::route_check {

// `path` names the file in errors: InputError with the line and what was expected.
routing::ForwardingTables parse_lft_text(std::string_view text, const std::string& path);
routing::ForwardingTables load_lfts(const std::string& path);  // any of the formats above

}  // namespace ibburn::route_check
