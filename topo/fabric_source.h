#pragma once
// Where a command's fabric comes from, the same for every command that takes one (`topo
// show/check`, `counters`, `plan`, `burn`, `report`, `wiring`): fabric files (several are
// merged, one snapshot per island) or live discovery, then the node-name-map. The CLI fills
// it with one call (app/fabric_options.h).
#include <string>
#include <vector>

#include "topo/fabric.h"
#include "topo/fabric_io.h"
#include "topo/dr_walker.h"

namespace ibburn::topo {

struct FabricSource {
  // Fabric files (JSON snapshot, ibnetdiscover text, libibnetdisc cache), merged when
  // several; empty or {"live"}: discover live through `live`; {"none"}: an Ethernet fabric
  // (RoCE, TCP) with no subnet to discover (`ibburn run` only). "live:CA[:PORT]" discovers
  // through that port, and may stand beside files and other ports: one source per plane
  // (each its own subnet) when a cluster has several.
  std::vector<std::string> files;
  DiscoverOptions live;  // -C/-P, hops, per-MAD timeout and retries (also the sweeps' and LFT reads')
  std::string node_name_map;
  LoadOptions load_options;  // for files: format, --allow-partial, where warnings go

  bool is_live() const;
  bool is_none() const;
  // How many snapshots the fabric is made of (1 for live discovery).
  int vantage_points() const;
  // "live", or the files as given (for messages).
  std::string name() const;
  // Loads or discovers, merges, applies the node-name-map. Throws InputError (bad file or
  // map, "live" or "none" given next to files, "none") or EnvironmentError (live discovery failed).
  Fabric load() const;

 private:
  Fabric discover_plane(const std::string& source) const;
};

}  // namespace ibburn::topo
