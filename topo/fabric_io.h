#pragma once
// Loading and saving whole fabrics, whatever the source format. Formats:
//  - ibburn JSON snapshot (.json)
//  - ibnetdiscover text: plain, --ports (-p) report, ibdiagnet2's .ibnetdiscover variant
//  - iblinkinfo output: default, --line, and a single switch (-S <guid>)
//  - libibnetdisc cache files (ibnetdiscover --cache)
//  - ibdiagnet2.db_csv, or the ibdiagnet output directory holding one (topo/db_csv_fabric.h)
// Malformed input throws InputError naming file:line and the reason. The text loaders skip
// the messages the tools and their libraries mix into captured output (warned about).
#include <functional>
#include <iostream>
#include <string>

#include "topo/fabric.h"

namespace ibburn::topo {

enum class FabricFormat { Auto, Json, IbnetdiscoverText, IblinkinfoText, IbnetdiscCache };

struct LoadOptions {
  FabricFormat format = FabricFormat::Auto;  // sniffed from the content when Auto
  // A dump that links to nodes it has no record of (cut short, or edited) loads with a
  // warning naming them, their ports kept as linked to an unreached peer; without it such a
  // dump is an InputError at the first line naming one.
  bool allow_partial = false;
  // Receives one sentence per thing a load accepted but the user should know (tool messages
  // skipped, a partial fabric). Unset: printed to stderr as "ibburn: warning: ...".
  std::function<void(const std::string&)> warn;
};

// Reads `path`.
Fabric load_fabric_file(const std::string& path, const LoadOptions& options = {});
Fabric load_fabric_file(const std::string& path, FabricFormat format);
// Parses text already in memory; `origin` names it in error messages.
Fabric parse_fabric_text(const std::string& text, const std::string& origin, const LoadOptions& options = {});
Fabric parse_fabric_text(const std::string& text, const std::string& origin, FabricFormat format);

// Passes `message` to options.warn, or prints it to stderr when that is unset.
// Inline so the text parsers (text_scan.cpp) link alone, as the fuzzers build them.
inline void warn(const LoadOptions& options, const std::string& message) {
  if (options.warn)
    options.warn(message);
  else
    std::cerr << "ibburn: warning: " << message << "\n";
}

// Writes JSON when `path` ends in .json, ibnetdiscover text otherwise.
void save_fabric_file(const Fabric& fabric, const std::string& path);
std::string to_json_text(const Fabric& fabric);
std::string to_ibnetdiscover_text(const Fabric& fabric);

}  // namespace ibburn::topo
