#pragma once
// The `ibnetdiscover --ports` (-p) report: one line per port,
//   CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'host HCA-1' - 'sw1' )
//   SW  2052 37 0x506b4b03005c2740 4x ???                                    'sw2'
// It prints port GUIDs only. Switch port GUIDs are the switch's own GUID, so they identify
// switches; a CA is identified by the GUID of the port shown, so each CA port that appears
// becomes its own node (the report cannot tell which ports share an adapter).
#include <string>
#include <string_view>

#include "topo/fabric.h"
#include "topo/fabric_io.h"

namespace ibburn::topo {

// True when the first line that is not blank, a comment or tool noise has the report's
// shape (`CA|SW|RT <lid> <port> 0x<guid> ...`).
bool looks_like_ports_report(std::string_view text);

// Throws InputError(origin, line, reason) on malformed lines and on a port that two lines
// link to different peers. Tool noise lines are skipped with a warning. A port printed
// without a peer is not linked and gets no rate: the width and speed the report prints for
// it are read from a port that is down, where PortInfo holds no trained values.
Fabric parse_ibnetdiscover_ports(std::string_view text, const std::string& origin, const LoadOptions& options = {});

}  // namespace ibburn::topo
