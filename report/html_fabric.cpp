// The fabric's picture on the page: the data of report/fabric_views.h for report/page.js,
// which draws the views into the SVG (the whole fabric, a pod, one switch's ports) and
// answers the search box.
#include <cmath>

#include <fmt/format.h>

#include "report/html_report.h"
#include "report/page_sections.h"

namespace ibburn::report {

namespace {
double tenth(double v) { return std::round(v * 10) / 10; }

nlohmann::json map_json(const FabricMap& m) {
  nlohmann::json boxes = nlohmann::json::array(), edges = nlohmann::json::array(), frames = nlohmann::json::array(),
                 buses = nlohmann::json::array();
  for (const auto& b : m.boxes)
    boxes.push_back(
        {b.name, b.tier, tenth(b.x), tenth(b.y), b.hcas, static_cast<int>(b.verdict), b.suspect ? 1 : 0, b.leaf});
  for (const auto& e : m.edges)
    edges.push_back({e.a, e.b, e.cables, static_cast<int>(e.verdict), (e.suspect ? 1 : 0) | (e.planned_only ? 2 : 0),
                     tenth(e.bus_y)});
  for (const auto& f : m.frames)
    frames.push_back({f.name, f.pod, tenth(f.x), tenth(f.y), tenth(f.w), tenth(f.h), static_cast<int>(f.verdict)});
  for (const auto& b : m.buses) buses.push_back({tenth(b.x1), tenth(b.x2), tenth(b.y)});
  return {{"w", tenth(m.width)}, {"h", tenth(m.height)}, {"boxes", boxes},
          {"edges", edges},      {"frames", frames},     {"buses", buses}};
}
}  // namespace

std::string script_data(const std::string& name, const nlohmann::json& data) {
  // Every '<' (only ever inside a JSON string) as \u003c: no text in the data ("</script>",
  // "<!--") can end the script or change how the page parses.
  std::string out = "<script>var " + name + "=";
  for (const char c : data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out + ";</script>";
}

std::string fabric_section(const FabricPicture& pic) {
  nlohmann::json verdicts = nlohmann::json::array(), nodes = nlohmann::json::array(), cables = nlohmann::json::array(),
                 notes = nlohmann::json::object(), pods = nlohmann::json::array();
  for (int v = 0; v < kCableVerdicts; ++v)
    verdicts.push_back({to_string(CableVerdict(v)), label(CableVerdict(v)), colour(CableVerdict(v))});
  for (const auto& n : pic.nodes) nodes.push_back({n.name, n.tier, n.pod});
  for (size_t i = 0; i < pic.cables.size(); ++i) {
    const auto& c = pic.cables[i];
    cables.push_back(
        {c.a, c.a_port, c.b, c.b_port, static_cast<int>(c.verdict), (c.suspect ? 1 : 0) | (c.planned_only ? 2 : 0)});
    if (!c.label.empty() || !c.evidence.empty())
      notes[std::to_string(i)] = nlohmann::json::array({c.label, c.evidence});
  }
  nlohmann::json pod_maps = nlohmann::json::array();
  for (const auto& m : pic.pod_maps) pod_maps.push_back(map_json(m));
  const nlohmann::json data{{"verdicts", verdicts}, {"nodes", nodes},   {"cables", cables},
                            {"notes", notes},       {"pods", pic.pods}, {"fabric", map_json(pic.fabric)},
                            {"pod_maps", pod_maps}};
  size_t switches = 0;
  for (const auto& n : pic.nodes) switches += n.tier >= 1;
  std::string out =
      fmt::format("<section id=\"fabric\"><h2>Fabric ({} switches, {} HCAs, {} cables)</h2><div class=\"legend\">",
                  switches, pic.nodes.size() - switches, pic.cables.size());
  for (int v = 0; v < kCableVerdicts; ++v)
    out += fmt::format(R"(<span style="background:{}">{}</span>)", colour(CableVerdict(v)), label(CableVerdict(v)));
  out +=
      "<span class=\"suspect-key\">suspect: outlined</span></div>"
      "<div class=\"map-bar\"><nav id=\"map-crumbs\"></nav>"
      "<input id=\"map-search\" type=\"search\" placeholder=\"host, switch or cable label\" autocomplete=\"off\">"
      "</div><ul id=\"search-results\"></ul>"
      "<svg id=\"map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" preserveAspectRatio=\"xMidYMin meet\">"
      "</svg><div id=\"map-detail\" class=\"note\">Click a pod, a switch or a leaf's HCA box; the wheel zooms, "
      "dragging moves.</div>";
  return out + script_data("FABRIC", data) + "</section>";
}

}  // namespace ibburn::report
