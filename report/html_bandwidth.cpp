// Bandwidth over time on the page: one inline SVG chart per stage (report/bandwidth_series.h).
#include <algorithm>

#include <fmt/format.h>

#include "report/html_report.h"
#include "report/page_sections.h"

namespace ibburn::report {

namespace {
constexpr double kW = 640, kH = 170, kLeft = 46, kRight = 10, kTop = 10, kBottom = 22;
constexpr const char* kLineColours[] = {"#d93025", "#a142f4", "#e8710a", "#1a73e8", "#5f6368"};

struct Axes {
  size_t seconds;
  double top_gbps;
  double x(size_t t) const {
    return seconds <= 1 ? kLeft + (kW - kLeft - kRight) / 2
                        : kLeft + (kW - kLeft - kRight) * static_cast<double>(t) / static_cast<double>(seconds - 1);
  }
  double y(double g) const { return kTop + (kH - kTop - kBottom) * (1 - g / top_gbps); }
};

// A band between two per-second series: along the upper, back along the lower.
std::string band(const Axes& ax, const std::vector<SecondSpread>& s, double SecondSpread::*lo, double SecondSpread::*hi,
                 const char* fill) {
  std::string pts;
  for (size_t t = 0; t < s.size(); ++t) pts += fmt::format("{:.1f},{:.1f} ", ax.x(t), ax.y(s[t].*hi));
  for (size_t t = s.size(); t-- > 0;) pts += fmt::format("{:.1f},{:.1f} ", ax.x(t), ax.y(s[t].*lo));
  return fmt::format(R"(<polygon points="{}" fill="{}" stroke="{}" stroke-width="{}"/>)", pts, fill, fill,
                     s.size() == 1 ? 6 : 0);
}

std::string line(const Axes& ax, const std::vector<double>& g, const char* colour, double width, const char* cls) {
  std::string pts;
  for (size_t t = 0; t < g.size(); ++t) pts += fmt::format("{:.1f},{:.1f} ", ax.x(t), ax.y(g[t]));
  if (g.size() == 1)
    return fmt::format(R"(<circle class="{}" cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>)", cls, ax.x(0), ax.y(g[0]),
                       colour);
  return fmt::format(R"(<polyline class="{}" points="{}" fill="none" stroke="{}" stroke-width="{}"/>)", cls, pts,
                     colour, width);
}

// "stage 2", or "stage 2 (shift 1)" for a stage the plan named otherwise: the generated plans
// name their stages "stage N", which the caption would otherwise print twice.
std::string stage_caption(const StageBandwidth& b) {
  const std::string number = fmt::format("stage {}", b.stage);
  return b.name.empty() || b.name == number ? number : number + " (" + html_escape(b.name) + ")";
}

std::string stage_chart(const StageBandwidth& b) {
  double top = b.line_rate;
  for (const auto& s : b.seconds) top = std::max(top, s.max);
  const Axes ax{b.seconds.size(), std::max(top, 1.0) * 1.05};
  std::vector<double> median;
  for (const auto& s : b.seconds) median.push_back(s.median);
  const int flows = b.seconds.empty() ? 0 : b.seconds.front().flows;
  std::string out = fmt::format(
      "<figure class=\"stage-bw\" data-stage=\"{}\"><figcaption>{}: {} directions, {} s; median {:.1f} Gb/s{}"
      "</figcaption><svg viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">",
      b.stage, stage_caption(b), flows, b.seconds.size(), median.empty() ? 0.0 : median.back(),
      b.line_rate > 0 ? fmt::format(" of {:.0f} line rate", b.line_rate) : "", kW, kH, kW, kH);
  // Axes: 0 and the top in Gb/s, the seconds along the bottom.
  out += fmt::format(
      R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#999"/><line x1="{0}" y1="{2}" x2="{3}" y2="{2}" stroke="#999"/>)",
      kLeft, kTop, kH - kBottom, kW - kRight);
  out += fmt::format(R"(<text x="2" y="{:.1f}">{:.0f}</text><text x="2" y="{:.1f}">0 Gb/s</text>)", kTop + 8,
                     ax.top_gbps, kH - kBottom);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}">seconds 1..{}</text>)", kW / 2 - 30, kH - 6, b.seconds.size());
  if (!b.seconds.empty()) {
    out += band(ax, b.seconds, &SecondSpread::min, &SecondSpread::max, "#e8eaed");
    out += band(ax, b.seconds, &SecondSpread::p10, &SecondSpread::p90, "#aecbfa");
    out += line(ax, median, "#1a73e8", 2, "median");
  }
  if (b.line_rate > 0)
    out += fmt::format(
        R"(<line class="line-rate" x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#202124" stroke-dasharray="5 3"/>)",
        kLeft, kW - kRight, ax.y(b.line_rate));
  std::string legend;
  for (size_t i = 0; i < b.slowest.size(); ++i) {
    const char* c = kLineColours[i % std::size(kLineColours)];
    out += line(ax, b.slowest[i].gbps, c, 1.2, "slowest");
    legend += fmt::format(R"(<li><span style="color:{}">&#9632;</span> {} (slowest second {:.1f} Gb/s)</li>)", c,
                          html_escape(b.slowest[i].name), b.slowest[i].lowest);
  }
  return out + "</svg><ul class=\"bw-legend\">" + legend + "</ul></figure>";
}
}  // namespace

std::string bandwidth_section(const std::vector<StageBandwidth>& stages) {
  if (stages.empty()) return "";
  std::string out =
      "<section id=\"bandwidth\"><h2>Bandwidth over time</h2><p class=\"note\">Per stage, each second: the "
      "directions' median Gb/s (line), 10th to 90th percentile (blue), lowest to highest (grey), line rate "
      "(dashed), and the slowest directions' own seconds.</p>";
  for (const auto& b : stages) out += stage_chart(b);
  return out + "</section>";
}

}  // namespace ibburn::report
