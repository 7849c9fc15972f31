#include "localization/endpoint_names.h"

#include <unordered_map>

#include <fmt/format.h>

#include "burn/summary.h"
#include "localization/burn_localize.h"

namespace ibburn::localization {

void name_endpoint_findings(std::vector<Finding>& findings, const topo::Fabric& fabric,
                            const std::vector<uint64_t>& port_guid_by_rank) {
  std::unordered_map<uint64_t, topo::PortEnd> by_guid;  // built only when a finding needs it
  for (auto& f : findings) {
    if (f.kind != FindingKind::SlowEndpoint && f.kind != FindingKind::FailedEndpoint &&
        f.kind != FindingKind::SuspectEndpoint && f.kind != FindingKind::LostRank)
      continue;
    burn::EndpointRecord record = details_of<FindingKind::SlowEndpoint, FindingKind::FailedEndpoint,
                                             FindingKind::SuspectEndpoint, FindingKind::LostRank>(f);
    if (record.rank < 0 || static_cast<size_t>(record.rank) >= port_guid_by_rank.size()) continue;
    const uint64_t guid = port_guid_by_rank[record.rank];
    if (!guid) continue;
    if (by_guid.empty()) by_guid = ports_by_guid(fabric);
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

}  // namespace ibburn::localization
