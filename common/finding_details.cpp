#include "common/finding_details.h"

#include <stdexcept>

namespace ibburn {

JsonFields details_reader(const nlohmann::json& details, FindingKind kind) {
  return JsonFields(details, [kind](const std::string& place, const std::string& what) {
    throw std::invalid_argument(std::string(to_string(kind)) +
                                " details: " + (place.empty() ? what : "field '" + place + "' " + what));
  });
}

void to_json(nlohmann::json& j, const ErrorsUnderLoadDetails& d) {
  j = {{"stage", d.stage},
       {"rise", d.rise},
       {"bits_received", d.bits_received},
       {"bits_sent", d.bits_sent},
       {"seconds", d.seconds}};
  if (d.symbol_errors_per_bit) j["symbol_errors_per_bit"] = *d.symbol_errors_per_bit;
}

ErrorsUnderLoadDetails FindingDetails<FindingKind::ErrorsUnderLoad>::read(const JsonFields& r) {
  ErrorsUnderLoadDetails d;
  d.stage = r.get<int>("stage");
  const JsonFields rise = r.object("rise");
  for (const auto& [counter, value] : rise.json()->items()) d.rise[counter] = rise.get<uint64_t>(counter);
  d.bits_received = r.get<double>("bits_received");
  d.bits_sent = r.get<double>("bits_sent");
  d.seconds = r.get<double>("seconds");
  d.symbol_errors_per_bit = r.optional<double>("symbol_errors_per_bit");
  return d;
}

void to_json(nlohmann::json& j, const DegradedDetails& d) {
  j = {{"active", d.active}};
  if (d.planned) j["planned"] = *d.planned;
  if (d.supported) j["supported"] = *d.supported;
}

DegradedDetails FindingDetails<FindingKind::Degraded>::read(const JsonFields& r) {
  DegradedDetails d{r.get<std::string>("active"), r.optional<std::string>("planned"),
                    r.optional<std::string>("supported")};
  if (d.planned.has_value() == d.supported.has_value()) r.fail("", "needs one of 'planned' and 'supported'");
  return d;
}

void to_json(nlohmann::json& j, const UntestedDetails& d) {
  j = {{"cables", d.cables},
       {"switches", d.switches},
       {"hosts_in_job", d.hosts_in_job},
       {"hosts_outside", d.hosts_outside},
       {"allocation", d.allocation}};
}

UntestedDetails FindingDetails<FindingKind::Untested>::read(const JsonFields& r) {
  UntestedDetails d;
  d.cables = r.get<std::vector<std::string>>("cables");
  d.switches = r.get<std::vector<std::string>>("switches");
  d.hosts_in_job = r.get<size_t>("hosts_in_job");
  d.hosts_outside = r.get<size_t>("hosts_outside");
  d.allocation = r.get<std::string>("allocation");
  return d;
}

void to_json(nlohmann::json& j, const SystemicDetails& d) {
  nlohmann::json cables = nlohmann::json::array();
  for (const auto& f : d.cables) cables.push_back(to_json(f));
  j = {{"of_kind", d.of_kind},
       {"scope", {{"type", to_string(d.scope.type)}, {"name", d.scope.name}, {"cables", d.scope.cables}}},
       {"count", d.count},
       {"evidence", d.evidence},
       {"cables", std::move(cables)}};
}

SystemicDetails FindingDetails<FindingKind::Systemic>::read(const JsonFields& r) {
  SystemicDetails d;
  const std::string of_kind = r.get<std::string>("of_kind");
  const auto kind = finding_kind_from_string(of_kind);
  if (!kind) r.fail("of_kind", "names no kind (" + of_kind + ")");
  d.of_kind = *kind;
  const JsonFields scope = r.object("scope");
  const std::string type = scope.get<std::string>("type");
  const auto scope_type = scope_type_from_string(type);
  if (!scope_type) scope.fail("type", "names no scope (" + type + ")");
  d.scope = {*scope_type, scope.get<std::string>("name"), scope.get<size_t>("cables")};
  d.count = r.get<size_t>("count");
  d.evidence = *r.object("evidence").json();
  r.each_object("cables", [&](const JsonFields& c) {
    try {
      d.cables.push_back(finding_from_json(*c.json()));
    } catch (const std::invalid_argument& e) {
      c.fail("", e.what());
    }
  });
  return d;
}

void to_json(nlohmann::json& j, const RouteUnbalancedDetails& d) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : d.ports) ports.push_back({{"port", p.port}, {"peer", p.peer}, {"destinations", p.destinations}});
  j = {{"switch", d.sw}, {"ports", ports}, {"mean_over_max", d.mean_over_max}};
  if (d.max_over_min) j["max_over_min"] = *d.max_over_min;
}

RouteUnbalancedDetails FindingDetails<FindingKind::RouteUnbalanced>::read(const JsonFields& r) {
  RouteUnbalancedDetails d;
  d.sw = r.get<std::string>("switch");
  r.each_object("ports", [&](const JsonFields& p) {
    d.ports.push_back({p.get<int>("port"), p.get<std::string>("peer"), p.get<uint32_t>("destinations")});
  });
  d.max_over_min = r.optional<double>("max_over_min");
  d.mean_over_max = r.get<double>("mean_over_max");
  return d;
}

void to_json(nlohmann::json& j, const PlaneDetails& d) {
  j = {{"plane", d.plane}, {"differences", d.differences}, {"bandwidth_fraction", d.bandwidth_fraction}};
}

namespace {
PlaneDetails read_plane(const JsonFields& r) {
  PlaneDetails d;
  d.plane = r.get<int>("plane");
  d.differences = r.get<std::vector<std::string>>("differences");
  d.bandwidth_fraction = r.get<double>("bandwidth_fraction");
  return d;
}
}  // namespace

PlaneDetails FindingDetails<FindingKind::PlaneAsymmetric>::read(const JsonFields& r) { return read_plane(r); }
PlaneDetails FindingDetails<FindingKind::PlaneMissing>::read(const JsonFields& r) { return read_plane(r); }

}  // namespace ibburn
