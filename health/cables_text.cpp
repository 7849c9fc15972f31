#include "health/cables_text.h"

#include "common/error.h"
#include "health/number_text.h"
#include "topo/text_scan.h"

namespace ibburn::health {
namespace {

// `KEY=value` up to the next space (or the rest of the line for the last key, whose value
// may hold spaces: `Port Name=`).
std::string_view field(std::string_view line, std::string_view key, bool rest) {
  size_t at = line.find(key);
  if (at == std::string_view::npos) return {};
  std::string_view v = line.substr(at + key.size());
  return rest ? topo::scan::trim(v) : v.substr(0, v.find(' '));
}

// "58C" -> 58; "N/A", "NA" and "0C" (no sensor) -> absent.
std::optional<double> degrees(std::string_view v, const std::string& origin, int line) {
  if (v == "N/A" || v == "NA") return std::nullopt;
  if (!v.ends_with("C")) throw InputError(origin, line, "temperature '" + std::string(v) + "' is not in C");
  auto d = parse_number<double>(v.substr(0, v.size() - 1));
  if (!d) throw InputError(origin, line, "temperature '" + std::string(v) + "' is not a number");
  if (*d == 0) return std::nullopt;
  return d;
}

}  // namespace

std::string part_text(const CableModule& m) {
  const auto known = [](const std::string& v) { return !v.empty() && v != "N/A" && v != "NA"; };
  std::string out;
  for (const std::string* v : {&m.vendor, &m.part_number})
    if (known(*v)) out += (out.empty() ? "" : " ") + *v;
  if (known(m.serial)) out += (out.empty() ? "SN " : " SN ") + m.serial;
  return out;
}

CablesFile parse_cables(const std::string& text, const std::string& origin) {
  CablesFile out;
  topo::scan::LineReader reader(text);
  std::string_view raw;
  CableModule* m = nullptr;
  while (reader.next(raw)) {
    const int lineno = reader.number();
    std::string_view line = topo::scan::trim(raw);
    if (line.empty() || line.starts_with("#") || line.find_first_not_of('-') == std::string_view::npos) continue;
    if (line.starts_with("Port=")) {
      std::string_view guid = field(line, "GUID=", false);
      if (guid.starts_with("0x")) guid.remove_prefix(2);
      auto port = parse_number<int>(field(line, "Port=", false));
      auto g = parse_number<uint64_t>(guid, 16);
      if (!port || !g) throw InputError(origin, lineno, "expected `Port=N Lid=... GUID=0x...`");
      m = &out.modules.emplace_back();
      m->guid = *g;
      m->port = *port;
      m->port_name = field(line, "Port Name=", true);
      m->line = lineno;
      continue;
    }
    size_t colon = line.find(':');
    if (!m || colon == std::string_view::npos) {
      ++out.stray_lines;
      continue;
    }
    std::string_view key = topo::scan::trim(line.substr(0, colon));
    std::string_view value = topo::scan::trim(line.substr(colon + 1));
    if (key == "Vendor")
      m->vendor = value;
    else if (key == "PN")
      m->part_number = value;
    else if (key == "SN")
      m->serial = value;
    else if (key == "Rev")
      m->revision = value;
    else if (key == "Temperature")
      m->temperature_c = degrees(value, origin, lineno);
    else if (key == "AlarmTemperatureHighThresh")
      m->alarm_high_c = degrees(value, origin, lineno);
    else if (key == "WarnTemperatureHighThresh")
      m->warning_high_c = degrees(value, origin, lineno);
  }
  return out;
}

}  // namespace ibburn::health
