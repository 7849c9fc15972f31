#pragma once
// Adapter over libibnetdisc: live discovery and libibnetdisc cache files, both turned into
// the fabric model. The only place that includes <infiniband/ibnetdisc.h>.
#include <chrono>
#include <string>

#include "topo/fabric.h"

namespace ibburn::topo {

struct DiscoverOptions {
  std::string ca;                          // -C: HCA name (empty = first with an active port)
  int port = 0;                            // -P: HCA port (0 = first active)
  int hop_limit = 0;                       // 0 = unlimited
  std::chrono::milliseconds timeout{200};  // per-MAD timeout
  int retries = 3;
};

// Discovers the fabric reachable from the local port. Ports that report a physical link
// whose peer could not be reached get Port::peer_unreached. Throws EnvironmentError when
// no port can be opened.
Fabric discover_live(const DiscoverOptions& options);

// Loads a cache file written by `ibnetdiscover --cache FILE` (or ibnd_cache_fabric).
Fabric load_ibnd_cache(const std::string& path);
// True when the file starts with libibnetdisc's cache magic.
bool is_ibnd_cache(const std::string& path);

}  // namespace ibburn::topo
