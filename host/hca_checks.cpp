// HCA checks (firmware, port state, rate, link layer) and device counts.
#include <map>

#include <fmt/format.h>

#include "host/checks.h"

namespace ibburn::host {

namespace {
// The most common value; ties go to the greater string (usually the newer firmware).
std::string most_common(const std::map<std::string, int>& counts) {
  std::string best;
  int n = -1;
  for (const auto& [v, c] : counts)
    if (c >= n) best = v, n = c;
  return best;
}
}  // namespace

std::vector<Finding> check_hcas(const HostInventory& inv, const Expectations& e) {
  std::vector<Finding> out;
  std::map<std::string, int> fws, rates;
  for (const auto& h : inv.hcas) {
    ++fws[h.fw_ver];
    for (const auto& p : h.ports) ++rates[p.rate];
  }
  std::string want_fw = e.fw ? *e.fw : most_common(fws);
  for (const auto& h : inv.hcas) {
    std::string node = inv.node_name(h.bdf);
    if (h.fw_ver != want_fw)
      out.push_back(Finding{FindingKind::HcaFirmware,
                            Severity::Error,
                            fmt::format("{}: firmware {} but {} {}", node, h.fw_ver.empty() ? "unknown" : h.fw_ver,
                                        e.fw ? "expected" : "most HCAs here run", want_fw),
                            {{node, 0}},
                            {{"fw_ver", h.fw_ver}, {"expected", want_fw}}});
    for (const auto& p : h.ports) {
      PortRef port{node, p.number};
      if (p.state != "4: ACTIVE" || p.phys_state != "5: LinkUp")
        out.push_back(Finding{FindingKind::HcaPortDown,
                              Severity::Error,
                              fmt::format("{} port {}: state '{}', phys_state '{}' (want '4: ACTIVE', '5: LinkUp')",
                                          node, p.number, p.state, p.phys_state),
                              {port},
                              {{"state", p.state}, {"phys_state", p.phys_state}}});
      auto rate = parse_rate_gbps(p.rate);
      if (e.rate_gbps ? (!rate || *rate != *e.rate_gbps) : p.rate != most_common(rates))
        out.push_back(Finding{
            FindingKind::HcaRate,
            e.rate_gbps ? Severity::Error : Severity::Warning,
            e.rate_gbps ? fmt::format("{} port {}: rate '{}', expected {} Gb/s", node, p.number, p.rate, *e.rate_gbps)
                        : fmt::format("{} port {}: rate '{}' while most ports here run '{}'", node, p.number, p.rate,
                                      most_common(rates)),
            {port},
            {{"rate", p.rate}}});
      if (e.link_layer && p.link_layer != *e.link_layer)
        out.push_back(Finding{
            FindingKind::HcaLinkLayer,
            Severity::Error,
            fmt::format("{} port {}: link layer '{}', expected {}", node, p.number, p.link_layer, *e.link_layer),
            {port},
            {{"link_layer", p.link_layer}}});
    }
  }
  return out;
}

std::vector<Finding> check_counts(const HostInventory& inv, const Expectations& e) {
  std::vector<Finding> out;
  auto count = [&](FindingKind kind, const char* what, std::optional<int> want, size_t have) {
    if (want && static_cast<size_t>(*want) != have)
      out.push_back(Finding{kind,
                            Severity::Error,
                            fmt::format("{} {} found, expected {}", have, what, *want),
                            {},
                            {{"found", have}, {"expected", *want}}});
  };
  count(FindingKind::GpuCount, "GPUs", e.gpus, inv.gpus.size());
  count(FindingKind::HcaCount, "HCAs", e.hcas, inv.hcas.size());
  return out;
}

}  // namespace ibburn::host
