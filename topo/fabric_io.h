#pragma once
// Loading and saving whole fabrics, whatever the source format. Formats:
//  - ibburn JSON snapshot (.json)
//  - ibnetdiscover text: plain, --ports (-p) report, ibdiagnet2's .ibnetdiscover variant
//  - libibnetdisc cache files (ibnetdiscover --cache)
// Malformed input throws InputError naming file:line and the reason.
#include <string>

#include "topo/fabric.h"

namespace ibburn::topo {

enum class FabricFormat { Auto, Json, IbnetdiscoverText, IbnetdiscCache };

// Reads `path` (format sniffed from content when Auto).
Fabric load_fabric_file(const std::string& path, FabricFormat format = FabricFormat::Auto);
// Parses text already in memory; `origin` names it in error messages.
Fabric parse_fabric_text(const std::string& text, const std::string& origin,
                         FabricFormat format = FabricFormat::Auto);

// Writes JSON when `path` ends in .json, ibnetdiscover text otherwise.
void save_fabric_file(const Fabric& fabric, const std::string& path);
std::string to_json_text(const Fabric& fabric);
std::string to_ibnetdiscover_text(const Fabric& fabric);

}  // namespace ibburn::topo
