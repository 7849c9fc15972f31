#include "topo/fabric_source.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "topo/fabric_io.h"
#include "topo/fabric_merge.h"
#include "topo/node_name_map.h"

namespace ibburn::topo {

bool FabricSource::is_live() const { return files.empty() || (files.size() == 1 && files[0] == "live"); }

bool FabricSource::is_none() const { return files.size() == 1 && files[0] == "none"; }

int FabricSource::vantage_points() const { return is_live() ? 1 : static_cast<int>(files.size()); }

std::string FabricSource::name() const {
  if (is_live()) return "live";
  if (is_none()) return "none";
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

Fabric FabricSource::load() const {
  Fabric fabric;
  if (is_none())
    throw InputError("--fabric", 0, "'none' (an Ethernet fabric, no subnet to discover) is for `ibburn run`");
  if (is_live()) {
    fabric = discover_live(live);
  } else {
    // A file named "live" would be shadowed by discovery anyway: say so rather than guess.
    for (const char* word : {"live", "none"})
      if (std::find(files.begin(), files.end(), word) != files.end())
        throw InputError("--fabric", 0, fmt::format("'{}' cannot be merged with fabric files", word));
    std::vector<Fabric> snapshots;
    for (const auto& f : files) snapshots.push_back(load_fabric_file(f, load_options));
    fabric = merge_fabrics(std::move(snapshots));
  }
  if (!node_name_map.empty()) NodeNameMap::load(node_name_map).apply(fabric);
  return fabric;
}

}  // namespace ibburn::topo
