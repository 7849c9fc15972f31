#include "report/health_section.h"

#include <algorithm>

#include <fmt/format.h>

#include "report/html_report.h"

namespace ibburn::report {
namespace {

std::string when_of(const nlohmann::json& capture) {
  return capture.value("capture", nlohmann::json::object()).value("when", "");
}

// At most `shown` names, then how many more.
std::string some_names(const nlohmann::json& nodes, size_t shown = 6) {
  std::string out;
  for (size_t i = 0; i < nodes.size() && i < shown; ++i)
    out += (i ? ", " : "") + html_escape(nodes[i].get<std::string>());
  if (nodes.size() > shown) out += fmt::format(" ... and {} more", nodes.size() - shown);
  return out;
}

std::string firmware_table(const nlohmann::json& capture, const std::string& when) {
  const nlohmann::json groups = capture.value("firmware", nlohmann::json::array());
  std::string out = fmt::format(
      R"(<h3>Firmware per board</h3><table id="health-firmware-{}"><tr><th>board</th><th>device</th><th>PSID</th>)"
      "<th>version</th><th>nodes</th><th>which</th></tr>",
      html_escape(when));
  // A board on several versions first: the update that did not finish.
  for (bool mixed : {true, false})
    for (const auto& g : groups) {
      const nlohmann::json versions = g.value("versions", nlohmann::json::array());
      if ((versions.size() > 1) != mixed) continue;
      for (size_t i = 0; i < versions.size(); ++i) {
        const auto& v = versions[i];
        out += fmt::format(R"(<tr{}>)", mixed ? R"( class="fw-mixed" style="background:#fde7e7")" : "");
        if (i == 0)
          out += fmt::format(R"(<td rowspan="{0}">{1}</td><td rowspan="{0}">{2}</td><td rowspan="{0}">{3}</td>)",
                             versions.size(), html_escape(g.value("model", "")), html_escape(g.value("device", "")),
                             html_escape(g.value("psid", "")));
        out += fmt::format("<td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(v.value("version", "")),
                           v.value("count", 0), some_names(v.value("nodes", nlohmann::json::array())));
      }
    }
  return out + "</table>";
}

std::string colour(double celsius, double hot, double alarm) {
  return celsius >= alarm ? "#d93025" : celsius >= hot ? "#e37400" : celsius >= hot - 10 ? "#f9ab00" : "#2e9e44";
}

std::string temperature_strip(const nlohmann::json& capture, const std::string& when) {
  const nlohmann::json limits = capture.value("limits", nlohmann::json::object());
  const double hot = limits.value("switch_hot_c", 70.0), alarm = limits.value("switch_alarm_c", 100.0);
  const nlohmann::json temps = capture.value("switch_temperatures", nlohmann::json::array());
  std::string out =
      fmt::format(R"(<h3>Switch temperatures, hottest first ({} switches; hot at {} C, alarm at {} C)</h3>)"
                  R"(<div id="health-temps-{}" style="display:flex;flex-wrap:wrap;gap:2px;max-width:1300px">)",
                  temps.size(), hot, alarm, html_escape(when));
  for (const auto& t : temps) {
    const double c = t.value("celsius", 0.0);
    out += fmt::format(
        R"(<div class="temp" title="{0}: {1} C" style="background:{2};color:#fff;font-size:11px;padding:2px 4px">{1}</div>)",
        html_escape(t.value("node", "")), c, colour(c, hot, alarm));
  }
  out += "</div>";
  const nlohmann::json modules = capture.value("module_temperatures", nlohmann::json::array());
  if (modules.empty()) return out;
  const size_t shown = std::min<size_t>(modules.size(), 10);
  out += fmt::format(
      R"(<h3>Hottest cable modules ({} of {})</h3><table id="health-modules-{}"><tr><th>port</th><th>C</th>)"
      "<th>warning C</th><th>alarm C</th><th>module</th></tr>",
      shown, modules.size(), html_escape(when));
  for (size_t i = 0; i < shown; ++i) {
    const auto& m = modules[i];
    const auto level = [&](const char* key) { return m.contains(key) ? fmt::format("{}", m[key].get<double>()) : ""; };
    out += fmt::format("<tr><td>{} port {}</td><td>{}</td><td>{}</td><td>{}</td><td>{} {} SN {}</td></tr>",
                       html_escape(m.value("node", "")), m.value("port", 0), m.value("celsius", 0.0),
                       level("warning_c"), level("alarm_c"), html_escape(m.value("vendor", "")),
                       html_escape(m.value("part_number", "")), html_escape(m.value("serial", "")));
  }
  return out + "</table>";
}

}  // namespace

std::string health_section_html(const std::vector<nlohmann::json>& captures) {
  std::string out;
  for (const auto& c : captures) {
    const std::string when = when_of(c);
    out +=
        fmt::format(R"(<h2 id="health-{}">Switch and cable health: ibdiagnet {} the burn ({})</h2>)", html_escape(when),
                    html_escape(when), html_escape(c.value("capture", nlohmann::json::object()).value("input", "")));
    out += firmware_table(c, when) + temperature_strip(c, when);
  }
  return out;
}

void health_metrics(PrometheusWriter& w, const std::vector<nlohmann::json>& captures) {
  if (captures.empty()) return;
  w.family("ibburn_switch_temperature_celsius", "Switch ASIC temperature an ibdiagnet capture read, C.");
  for (const auto& c : captures)
    for (const auto& t : c.value("switch_temperatures", nlohmann::json::array()))
      w.sample({{"capture", when_of(c)}, {"node", t.value("node", "")}}, t.value("celsius", 0.0));
  w.family("ibburn_module_temperature_celsius", "Cable module temperature an ibdiagnet capture read, C.");
  for (const auto& c : captures)
    for (const auto& m : c.value("module_temperatures", nlohmann::json::array()))
      w.sample({{"capture", when_of(c)},
                {"node", m.value("node", "")},
                {"port", std::to_string(m.value("port", 0))},
                {"vendor", m.value("vendor", "")},
                {"part_number", m.value("part_number", "")},
                {"serial", m.value("serial", "")}},
               m.value("celsius", 0.0));
  w.family("ibburn_firmware_info", "1 per node and the firmware an ibdiagnet capture read on it.");
  for (const auto& c : captures)
    for (const auto& g : c.value("firmware", nlohmann::json::array()))
      for (const auto& v : g.value("versions", nlohmann::json::array()))
        for (const auto& n : v.value("nodes", nlohmann::json::array()))
          w.sample({{"capture", when_of(c)},
                    {"node", n.get<std::string>()},
                    {"device", g.value("device", "")},
                    {"psid", g.value("psid", "")},
                    {"version", v.value("version", "")}},
                   1);
}

}  // namespace ibburn::report
