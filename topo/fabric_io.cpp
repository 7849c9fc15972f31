#include "topo/fabric_io.h"

#include <iostream>

#include "common/error.h"
#include "common/file_io.h"
#include "topo/db_csv.h"
#include "topo/db_csv_fabric.h"
#include "topo/iblinkinfo_text.h"
#include "topo/ibnd_fabric.h"
#include "topo/ibnetdiscover_text.h"
#include "topo/snapshot_json.h"

namespace ibburn::topo {
namespace {

bool ends_with_json(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

// A snapshot is a JSON object; ibnetdiscover text starts with '#', a key=value line, a
// record or a --ports line, never with '{'.
bool looks_like_json(std::string_view text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '{';
  }
  return false;
}

}  // namespace

Fabric load_fabric_file(const std::string& path, const LoadOptions& options) {
  const FabricFormat format = options.format;
  if (format == FabricFormat::IbnetdiscCache || (format == FabricFormat::Auto && is_ibnd_cache(path)))
    return load_ibnd_cache(path);
  if (std::string db = db_csv_file(path); format == FabricFormat::Auto && !db.empty())
    return fabric_from_db_csv(parse_db_csv(read_file(db), db));
  return parse_fabric_text(read_file(path), path, options);
}

Fabric load_fabric_file(const std::string& path, FabricFormat format) {
  LoadOptions options;
  options.format = format;
  return load_fabric_file(path, options);
}

Fabric parse_fabric_text(const std::string& text, const std::string& origin, const LoadOptions& options) {
  switch (options.format) {
    case FabricFormat::Json: return parse_snapshot_json(text, origin);
    case FabricFormat::IbnetdiscoverText: return parse_ibnetdiscover_text(text, origin, options);
    case FabricFormat::IblinkinfoText: return parse_iblinkinfo_text(text, origin, options);
    case FabricFormat::IbnetdiscCache:
      throw InputError(origin, 0, "a libibnetdisc cache is binary and must be loaded from its file");
    case FabricFormat::Auto: break;
  }
  if (looks_like_json(text)) return parse_snapshot_json(text, origin);
  if (looks_like_iblinkinfo(text)) return parse_iblinkinfo_text(text, origin, options);
  if (looks_like_db_csv(text)) return fabric_from_db_csv(parse_db_csv(text, origin));
  return parse_ibnetdiscover_text(text, origin, options);
}

Fabric parse_fabric_text(const std::string& text, const std::string& origin, FabricFormat format) {
  LoadOptions options;
  options.format = format;
  return parse_fabric_text(text, origin, options);
}

void save_fabric_file(const Fabric& fabric, const std::string& path) {
  write_file_atomic(path, ends_with_json(path) ? to_json_text(fabric) : to_ibnetdiscover_text(fabric));
}

}  // namespace ibburn::topo
