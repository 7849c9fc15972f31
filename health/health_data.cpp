#include "health/health_data.h"

#include <algorithm>
#include <map>

namespace ibburn::health {
namespace {

nlohmann::json firmware_groups(const std::vector<FirmwareRecord>& records) {
  // (device, PSID) -> version -> nodes; the model named once per group.
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::vector<std::string>>> groups;
  std::map<std::pair<std::string, std::string>, std::string> models;
  for (const FirmwareRecord& r : records) {
    if (r.psid.empty()) continue;
    groups[{r.device, r.psid}][r.version].push_back(r.name);
    if (!r.model.empty()) models.emplace(std::make_pair(r.device, r.psid), r.model);
  }
  nlohmann::json out = nlohmann::json::array();
  for (auto& [key, by_version] : groups) {
    std::vector<std::pair<std::string, std::vector<std::string>>> versions(by_version.begin(), by_version.end());
    std::sort(versions.begin(), versions.end(),
              [](const auto& a, const auto& b) { return compare_versions(a.first, b.first) < 0; });
    nlohmann::json vs = nlohmann::json::array();
    for (auto& [version, nodes] : versions)
      vs.push_back({{"version", version}, {"count", nodes.size()}, {"nodes", nodes}});
    auto model = models.find(key);
    out.push_back({{"device", key.first},
                   {"psid", key.second},
                   {"model", model == models.end() ? "" : model->second},
                   {"versions", vs}});
  }
  return out;
}

}  // namespace

nlohmann::json health_data_json(const HealthInputs& in, const TemperatureLimits& limits) {
  std::vector<SwitchTemperature> switches = in.temperatures;
  std::stable_sort(switches.begin(), switches.end(),
                   [](const auto& a, const auto& b) { return a.celsius > b.celsius; });
  nlohmann::json sw = nlohmann::json::array();
  for (const SwitchTemperature& t : switches) sw.push_back({{"node", t.name}, {"celsius", t.celsius}});
  std::vector<const ModuleAt*> modules;
  for (const ModuleAt& m : in.modules)
    if (m.module.temperature_c) modules.push_back(&m);
  std::stable_sort(modules.begin(), modules.end(),
                   [](const auto* a, const auto* b) { return *a->module.temperature_c > *b->module.temperature_c; });
  nlohmann::json mods = nlohmann::json::array();
  for (const ModuleAt* m : modules) {
    nlohmann::json j = {{"node", m->port.node},
                        {"port", m->port.port},
                        {"celsius", *m->module.temperature_c},
                        {"vendor", m->module.vendor},
                        {"part_number", m->module.part_number},
                        {"serial", m->module.serial}};
    if (m->module.warning_high_c) j["warning_c"] = *m->module.warning_high_c;
    if (m->module.alarm_high_c) j["alarm_c"] = *m->module.alarm_high_c;
    mods.push_back(std::move(j));
  }
  return {{"firmware", firmware_groups(in.firmware)},
          {"switch_temperatures", sw},
          {"module_temperatures", mods},
          {"limits", {{"switch_hot_c", limits.switch_hot_c}, {"switch_alarm_c", limits.switch_alarm_c}}}};
}

}  // namespace ibburn::health
