#include "localization/suspect_cable_details.h"

namespace ibburn::localization {
namespace {

constexpr const char* kCounterSource = "port counters";

nlohmann::json counter_json(const CounterEvidence& c) {
  nlohmann::json j = {{"source", kCounterSource},
                      {"cable", c.cable},
                      {"from", c.from},
                      {"to", c.to},
                      {"stage", c.stage},
                      {"stages", c.stages},
                      {"group", c.group},
                      {"data_octets", c.data_octets},
                      {"group_median_data_octets", c.group_median_data_octets},
                      {"z_data", c.z_data},
                      {"confidence", c.confidence}};
  if (c.xmit_wait) j["xmit_wait"] = *c.xmit_wait;
  if (c.group_median_xmit_wait) j["group_median_xmit_wait"] = *c.group_median_xmit_wait;
  if (c.z_wait) j["z_wait"] = *c.z_wait;
  return j;
}

CounterEvidence counter_evidence_from(const JsonFields& r) {
  CounterEvidence c;
  c.cable = r.get<std::string>("cable");
  c.from = r.get<std::string>("from");
  c.to = r.get<std::string>("to");
  c.stage = r.get<int>("stage");
  c.stages = r.get<std::vector<int>>("stages");
  c.group = r.get<std::vector<std::string>>("group");
  c.data_octets = r.get<double>("data_octets");
  c.group_median_data_octets = r.get<double>("group_median_data_octets");
  c.z_data = r.get<double>("z_data");
  c.confidence = r.get<double>("confidence");
  c.xmit_wait = r.optional<double>("xmit_wait");
  c.group_median_xmit_wait = r.optional<double>("group_median_xmit_wait");
  c.z_wait = r.optional<double>("z_wait");
  return c;
}

}  // namespace

void to_json(nlohmann::json& j, const SuspectCableDetails& d) {
  j = d.flows ? burn::to_json(*d.flows) : d.counters ? counter_json(*d.counters) : nlohmann::json::object();
  if (d.errors_under_load) j["errors_under_load"] = *d.errors_under_load;
}

}  // namespace ibburn::localization

namespace ibburn {

localization::SuspectCableDetails FindingDetails<FindingKind::SuspectCable>::read(const JsonFields& r) {
  localization::SuspectCableDetails d;
  const auto source = r.optional<std::string>("source");
  if (!source)
    d.flows = burn::suspect_record_from(r);
  else if (*source == localization::kCounterSource)
    d.counters = localization::counter_evidence_from(r);
  else
    r.fail("source", "names no evidence (" + *source + ")");
  if (r.has("errors_under_load"))
    d.errors_under_load = FindingDetails<FindingKind::ErrorsUnderLoad>::read(r.object("errors_under_load"));
  return d;
}

}  // namespace ibburn
