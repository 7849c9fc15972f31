#pragma once
// ibnetdiscover text <-> fabric model. Reads every variant ibburn has met (docs/formats.md):
//  - plain `ibnetdiscover` output, 2009 to today: node records (`vendid=`, `devid=`,
//    `sysimgguid=`, `switchguid=`/`caguid=`/`rtguid=` lines, then `Switch|Ca|Rt N "id" # ...`)
//    followed by one `[port]` line per linked port; TABs or spaces;
//  - ibdiagnet2's `ibdiagnet2.ibnetdiscover` (port labels such as `[1](1/1/1)`);
//  - the `ibnetdiscover --ports` report (topo/ibnetdiscover_ports.h), chosen by sniffing.
// The writer (to_ibnetdiscover_text, declared in topo/fabric_io.h) emits plain ibnetdiscover
// text that ibsim loads as a netfile and that this parser reads back to the same model.
#include <string>
#include <string_view>

#include "topo/fabric.h"
#include "topo/fabric_io.h"

namespace ibburn::topo {

// Parses ibnetdiscover text in any of the variants above. `origin` (a file name) prefixes
// every error. Throws InputError(origin, line, reason) on malformed input, including
// redacted GUIDs, a node that is linked to but has no record of its own (truncated dump;
// loaded with a warning under options.allow_partial), and a port that two lines link to
// different peers. Tool noise lines are skipped with a warning. A record without a quoted
// description takes its node id as description, as ibsim does with netfiles.
Fabric parse_ibnetdiscover_text(std::string_view text, const std::string& origin, const LoadOptions& options = {});

}  // namespace ibburn::topo
