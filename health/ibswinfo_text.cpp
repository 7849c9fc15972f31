#include "health/ibswinfo_text.h"

#include "common/error.h"
#include "health/number_text.h"
#include "topo/text_scan.h"

namespace ibburn::health {
namespace {

template <typename T>
T number(std::string_view s, int base, const std::string& origin, int line, const char* what) {
  if (auto n = parse_number<T>(s, base)) return *n;
  throw InputError(origin, line, std::string(what) + " '" + std::string(s) + "' is not a number");
}

}  // namespace

SwitchInfo parse_ibswinfo(const std::string& text, const std::string& origin) {
  using topo::scan::trim;
  SwitchInfo s;
  topo::scan::LineReader reader(text);
  std::string_view raw;
  while (reader.next(raw)) {
    const int lineno = reader.number();
    std::string_view line = trim(raw);
    if (line.empty() || line.find_first_not_of("=-") == std::string_view::npos) continue;
    size_t bar = line.find('|');
    if (bar == std::string_view::npos) {
      if (!s.description.empty()) throw InputError(origin, lineno, "expected `key | value`");
      s.description = line;
      continue;
    }
    const bool indented = raw.starts_with(' ') || raw.starts_with('\t');
    std::string key(trim(line.substr(0, bar)));
    std::string value(trim(line.substr(bar + 1)));
    if (indented && !s.psus.empty()) {
      SwitchPsu& p = s.psus.back();
      if (key == "P/N")
        p.part_number = value;
      else if (key == "S/N")
        p.serial = value;
      else if (key == "DC power")
        p.dc_power = value;
      else if (key == "fan status")
        p.fan_status = value;
      else
        ++s.stray_lines;  // power (W) and rows of newer versions
      continue;
    }
    if (key.starts_with("PSU") && key.ends_with(" status")) {
      s.psus.push_back({key.substr(0, key.size() - 7), value, "", "", "", ""});
    } else if (key == "part number") {
      s.part_number = value;
    } else if (key == "serial number") {
      s.serial = value;
    } else if (key == "product name") {
      s.product = value;
    } else if (key == "revision") {
      s.revision = value;
    } else if (key == "PSID") {
      s.psid = value;
    } else if (key == "GUID") {
      std::string_view g = value;
      if (g.starts_with("0x")) g.remove_prefix(2);
      s.guid = number<uint64_t>(g, 16, origin, lineno, "GUID");
    } else if (key == "firmware version") {
      s.firmware = value;
    } else if (key == "temperature (C)") {
      s.temperature_c = number<double>(value, 10, origin, lineno, "temperature");
    } else if (key == "max temp (C)") {
      s.max_temperature_c = number<double>(value, 10, origin, lineno, "max temp");
    } else if (key == "fan status") {
      s.fan_status = value;
    } else if (key.starts_with("fan#")) {
      s.fan_rpm.push_back(number<int>(value, 10, origin, lineno, key.c_str()));
    } else {
      ++s.stray_lines;  // ports, uptime and rows of newer versions
    }
  }
  for (auto [row, value] :
       {std::pair{"part number", &s.part_number}, {"PSID", &s.psid}, {"firmware version", &s.firmware}})
    if (value->empty()) throw InputError(origin, 0, std::string("no `") + row + "` row: not ibswinfo output");
  return s;
}

}  // namespace ibburn::health
