// Nights side by side on the page (report/history_nights.h).
#include <ctime>

#include <fmt/format.h>

#include "report/html_report.h"
#include "report/page_sections.h"

namespace ibburn::report {

namespace {
std::string night_name(const NightRun& r) {
  char day[32] = "";
  const std::time_t t = r.time;
  std::tm tm{};
  if (r.time > 0 && gmtime_r(&t, &tm)) std::strftime(day, sizeof day, "%Y-%m-%d %H:%M", &tm);
  return fmt::format("run {}<br>{}<br>{}", r.id, day, html_escape(r.outcome.empty() ? "finished" : r.outcome));
}

std::string change_list(const char* title, const std::vector<std::string>& items) {
  std::string out = fmt::format("<h3>{} ({})</h3>", title, items.size());
  if (items.empty()) return out;
  out += "<ul>";
  for (const auto& x : items) out += "<li>" + html_escape(x) + "</li>";
  return out + "</ul>";
}
std::string last_load(const Nights& n, const CableNights& c) {
  return c.last_full_load < 0 ? std::string("not in these nights")
                              : fmt::format("run {}", n.runs[static_cast<size_t>(c.last_full_load)].id);
}

// When each cable last carried a full load: what nights of partial allocations add up to.
std::string coverage_table(const Nights& n) {
  const Coverage& c = n.coverage;
  std::string out = fmt::format(
      "<h3 id=\"coverage\">Coverage: {} of {} cables carried a full load in the latest night, {} more in an "
      "earlier one, {} in none of these nights</h3>",
      c.loaded_latest, c.cables, c.loaded_earlier, c.cables - c.loaded_latest - c.loaded_earlier);
  if (c.stale.empty()) return out;
  out += fmt::format(
      "<table class=\"nights\" id=\"night-coverage\"><tr><th>cable (not loaded in the latest night{})</th>"
      "<th>last full load</th></tr>",
      c.stale_left_out ? fmt::format(", {} more not shown", c.stale_left_out) : "");
  for (const auto& s : c.stale)
    out += "<tr><td class=\"name\">" + html_escape(s.cable) + "</td><td>" + last_load(n, s) + "</td></tr>";
  return out + "</table>";
}
}  // namespace

std::string nights_section(const Nights& n) {
  if (n.runs.empty()) return "";
  std::string head = "<tr><th></th>";
  for (const auto& r : n.runs) head += "<th>" + night_name(r) + "</th>";
  std::string out = fmt::format("<section id=\"nights\"><h2>Nights side by side (the last {})</h2>", n.runs.size());
  out += "<table class=\"nights\">" + head + "</tr><tr><th>golden set</th>";
  for (size_t g : n.golden) out += fmt::format("<td class=\"num\">{}</td>", g);
  out += "</tr></table>";
  out += change_list("New in the latest night", n.new_findings) + change_list("Gone since the night before", n.gone) +
         change_list("Recurring", n.recurring) + coverage_table(n);
  out += fmt::format("<h3>Cables with findings ({}{})</h3>", n.cables.size(),
                     n.cables_left_out ? fmt::format(", {} more not shown", n.cables_left_out) : "");
  if (n.cables.empty()) return out + "</section>";
  out += "<table class=\"nights\" id=\"night-cables\">" + head + "<th>last full load</th></tr>";
  for (const auto& c : n.cables) {
    out += "<tr><td class=\"name\">" + html_escape(c.cable) + "</td>";
    for (int f : c.findings)
      out += f < 0 ? "<td class=\"unseen\">&mdash;</td>"
                   : fmt::format("<td class=\"num{}\">{}</td>", f > 0 ? " bad" : "", f);
    out += "<td>" + last_load(n, c) + "</td></tr>";
  }
  return out + "</table></section>";
}

}  // namespace ibburn::report
