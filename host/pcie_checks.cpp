// PCIe link checks: sysfs link status on the GPU/HCA paths, and the kernel's boot messages.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "host/checks.h"
#include "host/pcie_link.h"

namespace ibburn::host {

namespace {
constexpr uint16_t kNvidia = 0x10de;

// Sysfs reports each link on both ends; the upstream-facing end (endpoint or switch
// upstream port) is the one whose parent bridge is the other end, so each link is checked
// once there. Without config space (unprivileged), bridges alternate from the root port
// down: root port (downstream-facing), switch upstream port, downstream port, ...
bool faces_upstream(const PciFunction& f) {
  if (f.port_type) return host::faces_upstream(*f.port_type);
  return !f.is_bridge() || f.bridges.size() % 2 == 1;
}

template <typename T>
std::optional<T> min_known(std::optional<T> a, std::optional<T> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

bool below(std::optional<double> cur, std::optional<double> cap) { return cur && cap && *cur < *cap - 0.01; }
bool below(std::optional<int> cur, std::optional<int> cap) { return cur && cap && *cur < *cap; }

nlohmann::json link_json(std::optional<double> gts, std::optional<int> width) {
  nlohmann::json j = nlohmann::json::object();
  if (gts) j["speed_gts"] = *gts;
  if (width) j["width"] = *width;
  return j;
}
}  // namespace

std::vector<Finding> check_pcie_links(const HostInventory& inv) {
  std::vector<Finding> out;
  for (const auto& [bdf, f] : inv.pci) {
    if (!faces_upstream(f)) continue;
    const PciFunction* up = f.bridges.empty() ? nullptr : inv.find(f.bridges.back());
    auto cur_speed = f.speed_gts ? f.speed_gts : (up ? up->speed_gts : std::nullopt);
    auto cur_width = f.width ? f.width : (up ? up->width : std::nullopt);
    auto cap_speed = up ? min_known(f.max_speed_gts, up->max_speed_gts) : f.max_speed_gts;
    auto cap_width = up ? min_known(f.max_width, up->max_width) : f.max_width;
    std::string node = inv.node_name(bdf);
    std::string where = up ? " (upstream port " + inv.node_name(up->bdf) + ")" : "";
    std::vector<PortRef> ports = {{node, 0}};
    if (up) ports.push_back({inv.node_name(up->bdf), 0});
    nlohmann::json details = {{"current", link_json(cur_speed, cur_width)},
                              {"capable", link_json(cap_speed, cap_width)},
                              {"device_max", link_json(f.max_speed_gts, f.max_width)}};
    if (up) details["upstream"] = up->bdf;

    bool slow = below(cur_speed, cap_speed), narrow = below(cur_width, cap_width);
    if (slow || narrow) {
      // NVIDIA GPUs may lower the link speed (never the width) while idle.
      bool idle_gpu = !narrow && f.vendor == kNvidia && (f.class_code >> 16) == 0x03;
      std::string msg = fmt::format("{}: PCIe link trained at {}, both ends support {}{}", node,
                                    describe_link(cur_speed, cur_width), describe_link(cap_speed, cap_width), where);
      msg += idle_gpu ? "; GPUs may slow an idle link: recheck under load" : "; reseat the card or internal cable";
      out.push_back(
          Finding{FindingKind::PcieDegraded, idle_gpu ? Severity::Warning : Severity::Error, msg, ports, details});
    } else if (below(cur_speed, f.max_speed_gts) || below(cur_width, f.max_width)) {
      out.push_back(Finding{
          FindingKind::PcieCapped, Severity::Warning,
          fmt::format("{}: PCIe link runs at {}, the most its upstream port allows, below the "
                      "device's {}{}",
                      node, describe_link(cur_speed, cur_width), describe_link(f.max_speed_gts, f.max_width), where),
          ports, details});
    }
  }
  return out;
}

std::vector<Finding> check_kmsg(const HostInventory& inv) {
  std::vector<Finding> out;
  std::set<std::string> seen;  // the same message repeats when a driver is reloaded
  for (const auto& k : inv.kmsg) {
    if (!seen.insert(k.bdf + "|" + k.limited_at).second) continue;
    bool on_path = inv.find(k.bdf) != nullptr;
    std::string node = inv.node_name(k.bdf);
    std::vector<PortRef> ports = {{node, 0}};
    if (inv.find(k.limited_at)) ports.push_back({inv.node_name(k.limited_at), 0});
    out.push_back(Finding{
        FindingKind::PcieLimitedAtBoot,
        on_path ? Severity::Error : Severity::Info,
        fmt::format("{}: kernel log: {:.3f} Gb/s available PCIe bandwidth, limited by {} at {} "
                    "(capable of {:.3f} Gb/s with {}){}",
                    node, k.available_gbps, describe_link(k.speed_gts, k.width), k.limited_at, k.capable_gbps,
                    describe_link(k.capable_speed_gts, k.capable_width), on_path ? "" : "; not a GPU or HCA path"),
        ports,
        {{"limited_at", k.limited_at},
         {"available_gbps", k.available_gbps},
         {"capable_gbps", k.capable_gbps},
         {"line", k.line}}});
  }
  return out;
}

}  // namespace ibburn::host
