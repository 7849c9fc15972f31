#pragma once
// libibnetdisc cache files (`ibnetdiscover --cache FILE`) into the fabric model. The only
// place that includes <infiniband/ibnetdisc.h>; live discovery is topo/dr_walker.h.
#include <string>

#include "topo/fabric.h"

namespace ibburn::topo {

// Loads a cache file written by `ibnetdiscover --cache FILE` (or ibnd_cache_fabric).
Fabric load_ibnd_cache(const std::string& path);
// True when the file starts with libibnetdisc's cache magic.
bool is_ibnd_cache(const std::string& path);

}  // namespace ibburn::topo
