#pragma once
// iblinkinfo (infiniband-diags) output -> fabric model. Two layouts:
//  - default: a `CA: desc:` / `Switch: 0x<guid> desc:` header per node, then one line per port,
//      0x<port guid>      4    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       2   17[  ] "sw" ( )
//              2   17[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       4    1[  ] "h1 HCA-1" ( )
//    (CA lines start with the port GUID, switch lines with the switch LID);
//  - `--line`: no headers, each line starts `0x<port guid> "<desc>"` and names the peer's
//    port GUID too.
// Down ports (`==(   Down/ Polling)==>   [  ] "" ( )`) are unlinked ports with their states;
// `"Port not available"` marks a port that is up but whose peer was not reached.
// `iblinkinfo -S <guid>` prints one switch: a dump with a single node loads as that partial
// fabric, its links kept as ports with unreached peers (with a warning).
#include <string>
#include <string_view>

#include "topo/fabric.h"
#include "topo/fabric_io.h"

namespace ibburn::topo {

// True when the first significant line is an iblinkinfo node header or port line.
bool looks_like_iblinkinfo(std::string_view text);

// Throws InputError(origin, line, reason) on malformed lines, on a peer that cannot be told
// apart from another (same LID and description), on a peer without a record (unless
// options.allow_partial or a single-node dump), and on contradicting links.
Fabric parse_iblinkinfo_text(std::string_view text, const std::string& origin, const LoadOptions& options = {});

}  // namespace ibburn::topo
