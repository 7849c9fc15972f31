// What GPUDirect RDMA needs between each GPU and its HCA: no ACS P2P redirection on the
// bridges between them, a peer-memory path, and a short PCIe distance.
#include <map>
#include <set>

#include <fmt/format.h>

#include "host/checks.h"

namespace ibburn::host {

std::vector<Finding> check_acs(const HostInventory& inv, const std::vector<Pair>& pairs) {
  std::vector<Finding> out;
  std::map<std::string, std::vector<std::string>> redirecting;  // bridge -> pairs it sits between
  std::set<std::string> unreadable;
  size_t shortest_config = SIZE_MAX;
  for (const auto& p : pairs) {
    const PciFunction* g = inv.find(p.gpu_bdf);
    const PciFunction* h = inv.find(p.hca_bdf);
    if (!g || !h) continue;
    for (const auto& b : bridges_between(*g, *h)) {
      const PciFunction* f = inv.find(b);
      if (!f) continue;
      if (f->acs.state == AcsInfo::State::Unreadable) {
        unreadable.insert(b);
        shortest_config = std::min(shortest_config, f->config_bytes);
      } else if (f->acs.state == AcsInfo::State::Present && (f->acs.control & kAcsP2pRedirect)) {
        redirecting[b].push_back(p.gpu + "-" + p.hca);
      }
    }
  }
  for (const auto& [bdf, between] : redirecting) {
    const PciFunction& f = *inv.find(bdf);
    std::string node = inv.node_name(bdf);
    out.push_back(Finding{FindingKind::AcsP2pRedirect,
                          Severity::Error,
                          fmt::format("{}: ACS control {:#06x} redirects peer-to-peer traffic (RR/CR/EC) between {}: "
                                      "GPUDirect RDMA hangs or crawls; disable ACS in the BIOS or with "
                                      "setpci -s {} ECAP_ACS+0x6.w=0000",
                                      node, f.acs.control, fmt::join(between, ", "), bdf),
                          {{node, 0}},
                          {{"acs_control", f.acs.control}, {"pairs", between}}});
  }
  if (!unreadable.empty()) {
    std::vector<PortRef> ports;
    for (const auto& b : unreadable) ports.push_back({inv.node_name(b), 0});
    out.push_back(Finding{FindingKind::AcsUnreadable,
                          Severity::Warning,
                          fmt::format("ACS not checked on {} bridge{} between GPUs and HCAs: only {} bytes of config "
                                      "space readable (the ACS capability lies beyond 256; run as root)",
                                      unreadable.size(), unreadable.size() == 1 ? "" : "s", shortest_config),
                          ports,
                          {{"bridges", std::vector<std::string>(unreadable.begin(), unreadable.end())}}});
  }
  return out;
}

std::vector<Finding> check_peer_memory(const HostInventory& inv) {
  if (inv.gpus.empty() || inv.hcas.empty()) return {};
  if (!inv.peer_memory.empty() || inv.dmabuf == DmaBuf::Supported) return {};
  std::string dmabuf =
      inv.dmabuf == DmaBuf::Unsupported ? "the HCA driver does not support dma-buf" : "dma-buf support unknown";
  if (!inv.dmabuf_note.empty()) dmabuf += " (" + inv.dmabuf_note + ")";
  return {Finding{FindingKind::NoPeerMemory,
                  Severity::Error,
                  "no peer-memory module (nvidia_peermem, nv_mem, nv_mem_nc) is loaded and " + dmabuf +
                      ": GPUDirect RDMA cannot register GPU memory; modprobe nvidia_peermem",
                  {},
                  {{"dmabuf", to_string(inv.dmabuf)}}}};
}

std::vector<Finding> check_pairing(const HostInventory& inv, const std::vector<Pair>& pairs, const Expectations& e) {
  std::vector<Finding> out;
  if (inv.gpus.empty()) return out;
  if (inv.hcas.empty()) {
    out.push_back(Finding{FindingKind::NoHca,
                          Severity::Error,
                          fmt::format("{} GPU{} but no HCA in /sys/class/infiniband: nothing to burn with",
                                      inv.gpus.size(), inv.gpus.size() == 1 ? "" : "s"),
                          {},
                          {}});
    return out;
  }
  std::set<std::string> paired_gpus, paired_hcas;
  for (const auto& p : pairs) {
    paired_gpus.insert(p.gpu_bdf);
    paired_hcas.insert(p.hca_bdf);
    if (p.distance <= e.max_distance) continue;
    // The nearest HCA says whether the pairing or the hardware placement is at fault.
    Distance nearest = Distance::SYS;
    std::string nearest_hca;
    for (const auto& h : inv.hcas) {
      const PciFunction* gf = inv.find(p.gpu_bdf);
      const PciFunction* hf = inv.find(h.bdf);
      if (!gf || !hf) continue;
      Distance d = distance(*gf, *hf);
      if (nearest_hca.empty() || d < nearest) nearest = d, nearest_hca = h.name;
    }
    std::string g = inv.node_name(p.gpu_bdf), h = inv.node_name(p.hca_bdf);
    out.push_back(Finding{
        FindingKind::GpuHcaDistance,
        Severity::Error,
        fmt::format("{} is paired with {} at {}, beyond {} (NCCL turns GPUDirect RDMA off beyond "
                    "PXB); its nearest HCA, {}, is at {}",
                    g, h, to_string(p.distance), to_string(e.max_distance), nearest_hca, to_string(nearest)),
        {{g, 0}, {h, 0}},
        {{"distance", to_string(p.distance)}, {"nearest_hca", nearest_hca}, {"nearest_distance", to_string(nearest)}}});
  }
  for (const auto& gpu : inv.gpus)
    if (!paired_gpus.count(gpu.bdf))
      out.push_back(Finding{FindingKind::GpuUnpaired,
                            Severity::Warning,
                            inv.node_name(gpu.bdf) + ": no HCA left to pair with (more GPUs than HCAs)",
                            {{inv.node_name(gpu.bdf), 0}},
                            {}});
  for (const auto& hca : inv.hcas)
    if (!paired_hcas.count(hca.bdf))
      out.push_back(Finding{FindingKind::HcaUnpaired,
                            Severity::Warning,
                            inv.node_name(hca.bdf) + ": no GPU left to pair with (more HCAs than GPUs)",
                            {{inv.node_name(hca.bdf), 0}},
                            {}});
  return out;
}

}  // namespace ibburn::host
