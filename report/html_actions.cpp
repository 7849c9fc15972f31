// The page's actions, under the verdict: what the site does after the run.
#include <fmt/format.h>

#include "common/finding_details.h"
#include "report/html_report.h"
#include "report/page_sections.h"

namespace ibburn::report {

namespace {
// A list's text for the clipboard (page.js copies the textarea; print hides both).
std::string copy_button(const std::string& id, const std::string& text) {
  return fmt::format(
      R"(<button class="copy" data-copy="{0}" type="button">Copy as text</button><textarea id="{0}" class="copytext" readonly>{1}</textarea>)",
      id, html_escape(text));
}

std::string systemic_list(const std::vector<Finding>& findings) {
  std::string rows;
  size_t n = 0;
  for (const auto& f : findings) {
    if (f.kind != FindingKind::Systemic) continue;
    ++n;
    const CauseScope scope = details_of<FindingKind::Systemic>(f).scope;
    rows += fmt::format("<li class=\"sev-{}\"><b>{} {}</b>: {}</li>", to_string(f.severity),
                        html_escape(to_string(scope.type)), html_escape(scope.name), html_escape(f.message));
  }
  if (n == 0) return "";
  return fmt::format(
      "<h2>Systemic causes ({})</h2><p class=\"note\">The fabric's, a tier's, a rail's or a switch's: one cause "
      "each, not a host's or a cable's. They drain nobody.</p><ul id=\"systemic\">{}</ul>",
      n, rows);
}

// The go/no-go and the three costliest repairs, from summary.json's "price" (docs/price.md).
std::string price_lead(const nlohmann::json& price) {
  std::string out = "<h2>What the findings cost</h2>";
  if (!price.value("max_slowdown", nlohmann::json()).is_null()) {
    const bool go = price.value("go", true);
    out += fmt::format("<p id=\"go-no-go\" class=\"{}\"><b>{}</b> (limit {:.2f}x slower than designed)</p>",
                       go ? "pass" : "fail", go ? "GO" : "NO-GO", 1 + price["max_slowdown"].get<double>());
    for (const auto& n : price.value("no_go", nlohmann::json::array()))
      out += "<p class=\"note\">" + html_escape(n.get<std::string>()) + "</p>";
  }
  std::string rows;
  for (const auto& f : price.value("repairs", nlohmann::json::array()))
    rows += fmt::format("<li><b>{}</b> ({}): {}</li>", html_escape(f.value("message", "")),
                        html_escape(f.value("defect", "")), html_escape(f.value("cost", "")));
  out += rows.empty() ? "<p>No finding slows a collective.</p>" : "<ol id=\"costliest\">" + rows + "</ol>";
  return out;
}

std::string drain_list(const DrainList& drain) {
  std::string out = fmt::format("<h2>Hosts to drain ({})</h2>", drain.hosts.size());
  for (const auto& note : drain.notes) out += "<p class=\"note\">" + html_escape(note) + "</p>";
  if (drain.hosts.empty()) return out;
  out += copy_button("drain-text", drain_as_text(drain.hosts));
  out += "<table id=\"drain-list\"><tr><th>host</th><th>reason</th><th>cost</th></tr>";
  for (const auto& h : drain.hosts)
    out += fmt::format("<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td></tr>", html_escape(h.host),
                       html_escape(h.reason), html_escape(h.cost));
  return out + "</table>";
}

std::string cable_list(const std::vector<CableRow>& cables) {
  std::string out = fmt::format("<h2>Cables to service ({})</h2>", cables.size());
  if (cables.empty()) return out;
  out += copy_button("cables-text", cables_as_text(cables));
  out +=
      "<table id=\"cable-list\"><tr><th>cable</th><th>end A</th><th>end B</th><th>action</th><th>cost</th>"
      "<th>module</th><th>evidence</th></tr>";
  for (const auto& c : cables) {
    out += fmt::format(
        "<tr><td class=\"name\">{}</td><td class=\"name\">{}[{}]</td><td class=\"name\">{}[{}]</td>"
        "<td class=\"action-{}\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        html_escape(c.label), html_escape(c.a_node), html_escape(c.a_port), html_escape(c.b_node),
        html_escape(c.b_port), html_escape(c.action), html_escape(c.action), html_escape(c.cost),
        html_escape(module_text(c)), html_escape(c.evidence));
  }
  return out + "</table>";
}
}  // namespace

std::string actions_section(const RunData& run, const std::vector<Finding>& findings) {
  std::string out = run.burn && run.burn->price ? price_lead(*run.burn->price) : "";
  out += systemic_list(findings);
  if (run.drain) out += drain_list(*run.drain);
  if (run.cables) out += cable_list(*run.cables);
  return out.empty() ? "" : "<section id=\"actions\">" + out + "</section>";
}

}  // namespace ibburn::report
