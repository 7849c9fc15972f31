#include "topo/fabric_source.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "common/error.h"
#include "topo/fabric_io.h"
#include "topo/fabric_merge.h"
#include "topo/node_name_map.h"

namespace ibburn::topo {

namespace {

// "live:CA[:PORT]": the port of one plane; the rest of the options as given.
DiscoverOptions live_through(const std::string& source, DiscoverOptions options) {
  const std::string rest = source.substr(5);
  const size_t colon = rest.find(':');
  options.mad.ca = rest.substr(0, colon);
  options.mad.port = 0;
  if (options.mad.ca.empty())
    throw InputError("--fabric", 0, "'" + source + "': name the HCA, live:CA[:PORT] (live:mlx5_3:1)");
  if (colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    int p = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc() || end != port.data() + port.size() || p < 1 || p > 254)
      throw InputError("--fabric", 0, "'" + source + "': bad port '" + port + "' (1..254)");
    options.mad.port = p;
  }
  return options;
}

}  // namespace

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

// One port among several sources (one per plane): a plane that cannot be discovered is an
// empty subnet that says why, so the others are still checked and the plane is named missing.
Fabric FabricSource::discover_plane(const std::string& source) const {
  const DiscoverOptions options = live_through(source, live);
  if (files.size() == 1) return discover_live(options);
  try {
    return discover_live(options);
  } catch (const EnvironmentError& e) {
    Fabric empty;
    Subnet& sub = empty.subnets().emplace_back();
    sub.source = source;
    sub.error = e.what();
    return empty;
  }
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
        throw InputError("--fabric", 0,
                         fmt::format("'{}' cannot be merged with other sources (name the port: live:CA[:PORT])", word));
    std::vector<Fabric> snapshots;
    for (const auto& f : files) {
      snapshots.push_back(f.starts_with("live:") ? discover_plane(f) : load_fabric_file(f, load_options));
      Fabric& s = snapshots.back();
      if (s.subnets().empty()) {
        s.subnets().emplace_back().source = f;
        for (NodeId n = 0; n < s.size(); ++n) s.node(n).subnet = 0;
      }
    }
    fabric = merge_fabrics(std::move(snapshots));
  }
  if (!node_name_map.empty()) NodeNameMap::load(node_name_map).apply(fabric);
  return fabric;
}

}  // namespace ibburn::topo
