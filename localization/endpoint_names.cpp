#include "localization/endpoint_names.h"

#include <unordered_map>

#include <fmt/format.h>

#include "burn/summary.h"
#include "burn/verdict.h"
#include "localization/burn_localize.h"
#include "topo/fabric_summary.h"

namespace ibburn::localization {
namespace {

// The burn's findings about one endpoint, whose details are its EndpointRecord.
bool about_an_endpoint(FindingKind k) {
  return k == FindingKind::SlowEndpoint || k == FindingKind::FailedEndpoint || k == FindingKind::SuspectEndpoint ||
         k == FindingKind::LostRank;
}
burn::EndpointRecord endpoint_record(const Finding& f) {
  return details_of<FindingKind::SlowEndpoint, FindingKind::FailedEndpoint, FindingKind::SuspectEndpoint,
                    FindingKind::LostRank>(f);
}

}  // namespace

void name_endpoint_findings(std::vector<Finding>& findings, const topo::Fabric& fabric,
                            const std::vector<uint64_t>& port_guid_by_rank) {
  std::unordered_map<uint64_t, topo::PortEnd> by_guid;  // built only when a finding needs it
  for (auto& f : findings) {
    if (!about_an_endpoint(f.kind)) continue;
    burn::EndpointRecord record = endpoint_record(f);
    if (record.rank < 0 || static_cast<size_t>(record.rank) >= port_guid_by_rank.size()) continue;
    const uint64_t guid = port_guid_by_rank[record.rank];
    if (!guid) continue;
    if (by_guid.empty()) by_guid = topo::hca_ports_by_guid(fabric);
    const auto it = by_guid.find(guid);
    if (it == by_guid.end()) continue;
    const topo::Node& hca = fabric.node(it->second.node);
    const PortRef near{hca.name, it->second.port};
    std::string name = fmt::format("{}[{}]", near.node, near.port);
    f.ports = {near};
    if (const topo::Port* p = hca.port(near.port); p && p->remote.valid()) {
      const PortRef far{fabric.node(p->remote.node).name, p->remote.port};
      name += fmt::format(" (cable to {}[{}])", far.node, far.port);
      f.ports.push_back(far);
    }
    f.message = name + ": " + record.reason.value_or(to_string(record.verdict));
    record.port_guid = guid;
    f.details = burn::to_json(record);
  }
}

std::optional<PortRef> device_port(const burn::EndpointInfo& e) {
  if (e.host.empty() || e.endpoint.empty()) return std::nullopt;
  const auto colon = e.endpoint.rfind(':');
  const std::string number = colon == std::string::npos ? "" : e.endpoint.substr(colon + 1);
  const bool numbered = !number.empty() && number.find_first_not_of("0123456789") == std::string::npos;
  if (!numbered) return PortRef{e.host + " " + e.endpoint, 0};
  return PortRef{e.host + " " + e.endpoint.substr(0, colon), std::stoi(number)};
}

void name_endpoint_findings(std::vector<Finding>& findings, const std::vector<burn::EndpointInfo>& endpoints) {
  const auto port_of = [&](int rank) -> std::optional<PortRef> {
    if (rank < 0 || static_cast<size_t>(rank) >= endpoints.size()) return std::nullopt;
    return device_port(endpoints[rank]);
  };
  for (auto& f : findings) {
    const bool endpoint = about_an_endpoint(f.kind);
    // A flow's ranks stay ranks, as on a fabric: its ends are the endpoints' findings to name.
    if (!endpoint && f.kind != FindingKind::ErrorsUnderLoad) continue;
    for (auto& p : f.ports)
      if (auto rank = burn::rank_of_ref(p))
        if (auto named = port_of(*rank)) p = *named;
    if (!endpoint) continue;
    const burn::EndpointRecord record = endpoint_record(f);
    if (auto near = port_of(record.rank))
      f.message = fmt::format("{}[{}] (no cable known): {}", near->node, near->port,
                              record.reason.value_or(to_string(record.verdict)));
  }
}

}  // namespace ibburn::localization
