#include "health/temperature_check.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "common/error.h"
#include "health/key_value_text.h"
#include "health/number_text.h"
#include "health/rack_names.h"

namespace ibburn::health {

TemperatureLimits parse_temperature_limits(const std::string& text, const std::string& origin) {
  TemperatureLimits limits;
  for (const KeyValue& kv : parse_key_values(text, origin, "NAME=degrees")) {
    std::optional<double> v = parse_number<double>(kv.value);
    if (!v) throw InputError(origin, kv.line, "expected NAME=degrees");
    if (kv.key == "switch_hot_c")
      limits.switch_hot_c = *v;
    else if (kv.key == "switch_alarm_c")
      limits.switch_alarm_c = *v;
    else
      throw InputError(origin, kv.line, "unknown threshold " + kv.key + " (switch_hot_c, switch_alarm_c)");
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

// One finding for many hot readings of one cause; its details keep each one's own finding.
Finding one_cause(const std::vector<Finding>& hot, const std::vector<double>& celsius, size_t readings,
                  FindingKind kind, const std::string& what, const std::string& cause) {
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
  return f;
}

// The findings of one population, or (when most of it is hot) one finding in their place.
void tell(std::vector<Finding>& out, std::vector<Finding> hot, std::vector<double> celsius, size_t readings,
          const TemperatureLimits& limits, FindingKind kind, const std::string& what, const std::string& cause) {
  if (!most(hot.size(), readings, limits)) {
    for (Finding& f : hot) out.push_back(std::move(f));
    return;
  }
  out.push_back(one_cause(hot, celsius, readings, kind, what, cause));
}

// Rows, then racks, whose every switch with a reading (at least `place_min`) is hot: one
// finding each. Their switches are taken out of `hot` (index -> finding).
void tell_places(std::vector<Finding>& out, std::map<size_t, Finding>& hot, const std::vector<SwitchTemperature>& all,
                 const TemperatureLimits& limits) {
  for (const bool by_row : {true, false}) {
    std::map<std::string, std::vector<size_t>> at;
    for (size_t i = 0; i < all.size(); ++i) {
      const NodePlace p = place_of(all[i].name);
      const std::string& where = by_row ? p.row : p.rack;
      if (!where.empty()) at[where].push_back(i);
    }
    for (const auto& [where, members] : at) {
      if (members.size() < limits.place_min) continue;
      if (!std::all_of(members.begin(), members.end(), [&](size_t i) { return hot.count(i) > 0; })) continue;
      std::vector<Finding> each;
      std::vector<double> celsius;
      for (size_t i : members) {
        each.push_back(std::move(hot.at(i)));
        celsius.push_back(all[i].celsius);
        hot.erase(i);
      }
      Finding f = one_cause(each, celsius, members.size(), by_row ? FindingKind::RowHot : FindingKind::RackHot,
                            "switches of " + std::string(by_row ? "row " : "rack ") + where,
                            std::string("the ") + (by_row ? "row's" : "rack's") +
                                " cooling (air recirculating between its switches), not cables");
      f.details[by_row ? "row" : "rack"] = where;
      for (size_t i : members) f.ports.push_back({all[i].name, 0});
      out.push_back(std::move(f));
    }
  }
}

}  // namespace

std::vector<Finding> check_temperatures(const std::vector<SwitchTemperature>& switches,
                                        const std::vector<ModuleAt>& modules, const TemperatureLimits& limits) {
  std::vector<Finding> out;
  std::map<size_t, Finding> hot_switches;  // by index in `switches`
  for (size_t i = 0; i < switches.size(); ++i) {
    const SwitchTemperature& s = switches[i];
    if (s.celsius < limits.switch_hot_c) continue;
    const bool alarm = s.celsius >= limits.switch_alarm_c;
    const double level = alarm ? limits.switch_alarm_c : limits.switch_hot_c;
    hot_switches[i] = {FindingKind::SwitchHot,
                       alarm ? Severity::Error : Severity::Warning,
                       s.name + ": ASIC at " + degrees(s.celsius) + " C (" + (alarm ? "alarm" : "hot") + " at " +
                           degrees(level) + " C)",
                       {{s.name, 0}},
                       {{"celsius", s.celsius}, {"threshold_c", level}}};
  }
  // Most of the room, else whole rows and racks, else each switch.
  if (!most(hot_switches.size(), switches.size(), limits)) tell_places(out, hot_switches, switches, limits);
  std::vector<Finding> hot;
  std::vector<double> celsius;
  for (auto& [i, f] : hot_switches) {
    hot.push_back(std::move(f));
    celsius.push_back(switches[i].celsius);
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
                   where + ": module " + part_text(c) + " at " + degrees(*c.temperature_c) + " C, its own " +
                       (alarm ? "alarm" : "warning") + " threshold " + degrees(level) + " C",
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
