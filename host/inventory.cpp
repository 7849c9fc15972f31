#include "host/inventory.h"

namespace ibburn::host {

const PciFunction* HostInventory::find(const std::string& bdf) const {
  auto it = pci.find(bdf);
  return it == pci.end() ? nullptr : &it->second;
}

std::string HostInventory::node_name(const std::string& bdf) const {
  for (const auto& g : gpus)
    if (g.bdf == bdf) return bdf + " " + g.name;
  for (const auto& h : hcas)
    if (h.bdf == bdf) return bdf + " " + h.name;
  const PciFunction* f = find(bdf);
  if (f && f->is_bridge()) return bdf + " bridge";
  return bdf;
}

}  // namespace ibburn::host
