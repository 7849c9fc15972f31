#include "host/distance.h"

#include <algorithm>
#include <tuple>

namespace ibburn::host {

const char* to_string(Distance d) {
  switch (d) {
    case Distance::PIX: return "PIX";
    case Distance::PXB: return "PXB";
    case Distance::PHB: return "PHB";
    case Distance::NODE: return "NODE";
    case Distance::SYS: return "SYS";
  }
  return "SYS";
}

std::optional<Distance> distance_from_string(const std::string& s) {
  for (Distance d : {Distance::PIX, Distance::PXB, Distance::PHB, Distance::NODE, Distance::SYS})
    if (s == to_string(d)) return d;
  return std::nullopt;
}

namespace {
// Number of bridges both have above them (0 when their host bridges differ).
size_t common_bridges(const PciFunction& a, const PciFunction& b) {
  if (a.host_bridge != b.host_bridge) return 0;
  size_t n = 0;
  while (n < a.bridges.size() && n < b.bridges.size() && a.bridges[n] == b.bridges[n]) ++n;
  return n;
}
}  // namespace

Distance distance(const PciFunction& a, const PciFunction& b) {
  if (a.host_bridge != b.host_bridge) {
    // -1 means the kernel does not know (one-socket machines): assume one node.
    bool same_node = a.numa_node < 0 || b.numa_node < 0 || a.numa_node == b.numa_node;
    return same_node ? Distance::NODE : Distance::SYS;
  }
  size_t common = common_bridges(a, b);
  if (common == 0) return Distance::PHB;
  // Below the deepest common bridge, a device under one switch has only its downstream port;
  // anything deeper is a further switch.
  size_t below = std::max(a.bridges.size(), b.bridges.size()) - common;
  return below <= 1 ? Distance::PIX : Distance::PXB;
}

std::vector<std::string> bridges_between(const PciFunction& a, const PciFunction& b) {
  size_t common = common_bridges(a, b);
  std::vector<std::string> out;
  // Without a common bridge the transfer goes through the root complex in any case: ACS
  // redirection changes no route there (and such pairs are beyond PXB anyway).
  if (common == 0) return out;
  out.push_back(a.bridges[common - 1]);  // the switch port where the paths meet
  out.insert(out.end(), a.bridges.begin() + static_cast<long>(common), a.bridges.end());
  out.insert(out.end(), b.bridges.begin() + static_cast<long>(common), b.bridges.end());
  return out;
}

std::vector<Pair> pair_gpus_with_hcas(const HostInventory& inv) {
  struct Candidate {
    Distance d;
    size_t gpu, hca;
  };
  std::vector<Candidate> all;
  for (size_t g = 0; g < inv.gpus.size(); ++g) {
    const PciFunction* gf = inv.find(inv.gpus[g].bdf);
    if (!gf) continue;
    for (size_t h = 0; h < inv.hcas.size(); ++h) {
      const PciFunction* hf = inv.find(inv.hcas[h].bdf);
      if (hf) all.push_back({distance(*gf, *hf), g, h});
    }
  }
  std::sort(all.begin(), all.end(), [](const Candidate& x, const Candidate& y) {
    return std::tie(x.d, x.gpu, x.hca) < std::tie(y.d, y.gpu, y.hca);
  });
  std::vector<bool> gpu_used(inv.gpus.size()), hca_used(inv.hcas.size());
  std::vector<Pair> pairs;
  for (const auto& c : all) {
    if (gpu_used[c.gpu] || hca_used[c.hca]) continue;
    gpu_used[c.gpu] = hca_used[c.hca] = true;
    const Gpu& g = inv.gpus[c.gpu];
    const Hca& h = inv.hcas[c.hca];
    pairs.push_back({g.name, g.bdf, h.name, h.bdf, c.d});
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.gpu_bdf < y.gpu_bdf; });
  return pairs;
}

}  // namespace ibburn::host
