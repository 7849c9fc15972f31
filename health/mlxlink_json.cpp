#include "health/mlxlink_json.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/json_parse.h"

namespace ibburn::health {
namespace {

using nlohmann::json;

std::string text_at(const json& section, const char* key) {
  auto it = section.find(key);
  return it != section.end() && it->is_string() ? it->get<std::string>() : "";
}

// The leading number of "61 [-10..80]" or "5E-10"; absent for "N/A" and the like.
std::optional<double> leading_number(std::string_view s) {
  double out = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc()) return std::nullopt;
  return out;
}

// The upper bound of a value's range, "61 [-10..80]" -> 80.
std::optional<double> range_high(std::string_view s) {
  size_t dots = s.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  return leading_number(s.substr(dots + 2));
}

}  // namespace

MlxlinkPort parse_mlxlink_json(const std::string& text, const std::string& origin) {
  const json j = parse_json(text, origin);
  const json* output = nullptr;
  if (j.is_object() && j.contains("result") && j["result"].is_object() && j["result"].contains("output"))
    output = &j["result"]["output"];
  if (!output || !output->is_object()) throw InputError(origin, 0, "no result.output: not mlxlink --json output");
  static const json empty = json::object();
  auto section = [&](const char* name) -> const json& {
    auto it = output->find(name);
    return it != output->end() && it->is_object() ? *it : empty;
  };
  MlxlinkPort p;
  const json& module = section("Module Info");
  p.module.vendor = text_at(module, "Vendor Name");
  p.module.part_number = text_at(module, "Vendor Part Number");
  p.module.serial = text_at(module, "Vendor Serial Number");
  p.module.revision = text_at(module, "Rev");
  p.module.port_name = origin;
  const std::string temperature = text_at(module, "Temperature [C]");
  p.module.temperature_c = leading_number(temperature);
  p.module.alarm_high_c = range_high(temperature);
  p.module_firmware = text_at(module, "FW Version");
  p.device_firmware = text_at(section("Tool Information"), "Firmware Version");
  const json& ber = section("Physical Counters and BER Info");
  p.raw_ber = leading_number(text_at(ber, "Raw Physical BER"));
  p.effective_ber = leading_number(text_at(ber, "Effective Physical BER"));
  if (auto lanes = ber.find("Raw Physical BER Per Lane"); lanes != ber.end() && lanes->is_object())
    if (auto values = lanes->find("values"); values != lanes->end() && values->is_array())
      for (const json& v : *values)
        if (auto n = v.is_string() ? leading_number(v.get<std::string>()) : std::nullopt)
          p.raw_ber_per_lane.push_back(*n);
  return p;
}

}  // namespace ibburn::health
