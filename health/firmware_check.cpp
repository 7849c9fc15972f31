#include "health/firmware_check.h"

#include <algorithm>

#include "common/error.h"
#include "health/key_value_text.h"
#include "health/number_text.h"

namespace ibburn::health {

FirmwarePins parse_firmware_pins(const std::string& text, const std::string& origin) {
  FirmwarePins pins;
  for (const KeyValue& kv : parse_key_values(text, origin, "PSID=version"))
    if (!pins.emplace(kv.key, kv.value).second) throw InputError(origin, kv.line, "PSID " + kv.key + " pinned twice");
  return pins;
}

std::string model_of(const std::string& description) {
  // Managed switches: "MF0;<hostname>:<model>/U1".
  if (description.starts_with("MF0;")) {
    size_t colon = description.find(':'), slash = description.find('/', colon);
    if (colon != std::string::npos)
      return description.substr(colon + 1, slash == std::string::npos ? slash : slash - colon - 1);
  }
  const std::string vendor = " Mellanox Technologies";
  if (description.ends_with(vendor)) return description.substr(0, description.size() - vendor.size());
  return "";  // an HCA's "host mlx5_0" names the host, not the model
}

int compare_versions(const std::string& a, const std::string& b) {
  std::string_view x = a, y = b;
  while (!x.empty() || !y.empty()) {
    auto part = [](std::string_view& s) {
      size_t dot = s.find('.');
      std::string_view p = s.substr(0, dot);
      s = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
      return p;
    };
    std::string_view px = part(x), py = part(y);
    // Non-numeric parts ("rc1") compare as text.
    auto nx = parse_number<unsigned long long>(px), ny = parse_number<unsigned long long>(py);
    int c = nx && ny ? (*nx < *ny ? -1 : *nx > *ny) : px.compare(py);
    if (c != 0) return c < 0 ? -1 : 1;
  }
  return 0;
}

namespace {

struct Group {
  std::vector<const FirmwareRecord*> nodes;
};

std::string group_model(const Group& g) {
  std::map<std::string, size_t> count;
  for (const FirmwareRecord* r : g.nodes)
    if (!r->model.empty()) ++count[r->model];
  auto best = std::max_element(count.begin(), count.end(), [](auto& a, auto& b) { return a.second < b.second; });
  return best == count.end() ? "" : best->first;
}

}  // namespace

std::vector<Finding> check_firmware(const std::vector<FirmwareRecord>& records, const FirmwarePins& pins) {
  std::map<std::pair<std::string, std::string>, Group> groups;
  for (const FirmwareRecord& r : records)
    if (!r.psid.empty() && !r.version.empty()) groups[{r.device, r.psid}].nodes.push_back(&r);

  std::vector<Finding> out;
  for (const auto& [key, g] : groups) {
    const auto& [device, psid] = key;
    // Versions oldest first, so the message reads from the nodes behind to the newest.
    std::map<std::string, std::vector<std::string>, bool (*)(const std::string&, const std::string&)> versions(
        [](const std::string& a, const std::string& b) { return compare_versions(a, b) < 0; });
    for (const FirmwareRecord* r : g.nodes) versions[r->version].push_back(r->name);
    auto pin = pins.find(psid);
    const bool pinned = pin != pins.end();
    const std::string target = pinned ? pin->second : versions.rbegin()->first;
    if (versions.size() == 1 && (!pinned || compare_versions(target, versions.begin()->first) == 0)) continue;

    Finding f;
    f.kind = versions.size() > 1 ? FindingKind::FirmwareMixed : FindingKind::FirmwareUnpinned;
    f.severity = pinned ? Severity::Error : Severity::Warning;
    const std::string model = group_model(g);
    // ibswinfo's groups are keyed by part number, which is their model too.
    std::string what = model.empty()     ? "device " + device
                       : model == device ? model
                                         : model + " (device " + device + ")";
    what += ", PSID " + psid;
    nlohmann::json list = nlohmann::json::array();
    std::string spread;
    size_t off = 0;
    for (const auto& [version, nodes] : versions) {
      std::vector<std::string> sorted = nodes;
      std::sort(sorted.begin(), sorted.end());
      list.push_back({{"version", version}, {"count", nodes.size()}, {"nodes", sorted}});
      if (compare_versions(version, target) != 0) {
        off += nodes.size();
        for (const std::string& n : sorted) f.ports.push_back({n, 0});
      }
      spread += spread.empty() ? std::to_string(nodes.size()) + " of " + std::to_string(g.nodes.size()) + " " + what +
                                     ", on " + version
                               : "; " + std::to_string(nodes.size()) + " on " + version;
    }
    if (pinned)
      f.message = spread + ": " + std::to_string(off) + " not on the pinned " + target;
    else
      f.message = spread + ": an update that did not finish";
    f.details = {{"device", device}, {"psid", psid}, {"model", model}, {"versions", list}, {"behind", off}};
    if (pinned) f.details["pinned"] = target;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ibburn::health
