#include "health/temperature_check.h"

#include <algorithm>
#include <sstream>

#include "common/error.h"
#include "common/text.h"
#include "health/number_text.h"
#include "topo/text_scan.h"

namespace ibburn::health {

TemperatureLimits parse_temperature_limits(const std::string& text, const std::string& origin) {
  TemperatureLimits limits;
  topo::scan::LineReader reader(text);
  std::string_view raw;
  while (reader.next(raw)) {
    std::string_view line = trim(raw);
    if (line.empty() || line.starts_with('#')) continue;
    size_t eq = line.find('=');
    std::string_view name = trim(line.substr(0, eq)),
                     value = eq == std::string_view::npos ? "" : trim(line.substr(eq + 1));
    std::optional<double> v = parse_number<double>(value);
    if (!v) throw InputError(origin, reader.number(), "expected NAME=degrees");
    if (name == "switch_hot_c")
      limits.switch_hot_c = *v;
    else if (name == "switch_alarm_c")
      limits.switch_alarm_c = *v;
    else
      throw InputError(origin, reader.number(),
                       "unknown threshold " + std::string(name) + " (switch_hot_c, switch_alarm_c)");
  }
  return limits;
}

namespace {

std::string degrees(double c) {
  std::ostringstream os;
  os << c;
  return os.str();
}

bool most(size_t hot, size_t readings, const TemperatureLimits& l) {
  return hot >= l.most_min && static_cast<double>(hot) >= l.most_share * static_cast<double>(readings);
}

// The findings of one population, or (when most of it is hot) one finding in their place
// whose details keep every one of them.
void tell(std::vector<Finding>& out, std::vector<Finding> hot, std::vector<double> celsius, size_t readings,
          const TemperatureLimits& limits, FindingKind kind, const std::string& what, const std::string& cause) {
  if (!most(hot.size(), readings, limits)) {
    for (Finding& f : hot) out.push_back(std::move(f));
    return;
  }
  Finding f;
  f.kind = kind;
  f.severity = Severity::Info;
  nlohmann::json each = nlohmann::json::array();
  for (const Finding& h : hot) {
    f.severity = std::max(f.severity, h.severity);
    each.push_back(to_json(h));
  }
  auto [lo, hi] = std::minmax_element(celsius.begin(), celsius.end());
  f.message = std::to_string(hot.size()) + " of " + std::to_string(readings) + " " + what + " at " + degrees(*lo) +
              (*lo == *hi ? "" : "-" + degrees(*hi)) + " C: " + cause;
  f.details = {{"count", hot.size()}, {"readings", readings}, {"min_c", *lo}, {"max_c", *hi}, {"each", each}};
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> check_temperatures(const std::vector<SwitchTemperature>& switches,
                                        const std::vector<ModuleAt>& modules, const TemperatureLimits& limits) {
  std::vector<Finding> out;
  std::vector<Finding> hot;
  std::vector<double> celsius;
  for (const SwitchTemperature& s : switches) {
    if (s.celsius < limits.switch_hot_c) continue;
    const bool alarm = s.celsius >= limits.switch_alarm_c;
    const double level = alarm ? limits.switch_alarm_c : limits.switch_hot_c;
    hot.push_back({FindingKind::SwitchHot,
                   alarm ? Severity::Error : Severity::Warning,
                   s.name + ": ASIC at " + degrees(s.celsius) + " C (" + (alarm ? "alarm" : "hot") + " at " +
                       degrees(level) + " C)",
                   {{s.name, 0}},
                   {{"celsius", s.celsius}, {"threshold_c", level}}});
    celsius.push_back(s.celsius);
  }
  tell(out, std::move(hot), std::move(celsius), switches.size(), limits, FindingKind::SwitchesHot, "switches",
       "cooling (air recirculating between switches), not cables");

  hot.clear();
  celsius.clear();
  size_t readings = 0;
  for (const ModuleAt& m : modules) {
    const CableModule& c = m.module;
    if (!c.temperature_c) continue;
    ++readings;
    const bool alarm = c.alarm_high_c && *c.temperature_c >= *c.alarm_high_c;
    const bool warning = c.warning_high_c && *c.temperature_c >= *c.warning_high_c;
    if (!alarm && !warning) continue;
    const double level = alarm ? *c.alarm_high_c : *c.warning_high_c;
    std::string where = m.port.node + (m.port.port ? " port " + std::to_string(m.port.port) : "");
    hot.push_back({FindingKind::ModuleHot,
                   alarm ? Severity::Error : Severity::Warning,
                   where + ": module " + c.vendor + " " + c.part_number + " SN " + c.serial + " at " +
                       degrees(*c.temperature_c) + " C, its own " + (alarm ? "alarm" : "warning") + " threshold " +
                       degrees(level) + " C",
                   {m.port},
                   {{"celsius", *c.temperature_c},
                    {"threshold_c", level},
                    {"vendor", c.vendor},
                    {"part_number", c.part_number},
                    {"serial", c.serial},
                    {"revision", c.revision}}});
    celsius.push_back(*c.temperature_c);
  }
  tell(out, std::move(hot), std::move(celsius), readings, limits, FindingKind::ModulesHot, "cable modules",
       "cooling, not the modules");
  return out;
}

}  // namespace ibburn::health
