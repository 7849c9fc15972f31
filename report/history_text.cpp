#include <fmt/format.h>

#include "report/history.h"

namespace ibburn::report {

namespace {
std::string plural(const std::string& kind) { return kind == "switch" ? "switches" : kind + "s"; }
}  // namespace

std::string format_history(const HistoryReport& r, size_t max_rows, bool list_golden) {
  std::string out =
      fmt::format("history: last {} run(s){}, {} failing subject(s), {} golden\n", r.runs,
                  r.incomplete ? fmt::format(" ({} incomplete)", r.incomplete) : "", r.failing.size(), r.golden.size());
  for (const char* kind : {"host", "hca", "cable", "switch"}) {
    size_t shown = 0, total = 0;
    for (const auto& s : r.failing) {
      if (s.subject_kind != kind) continue;
      if (total++ == 0) out += fmt::format("failing {} (failed runs / findings, last finding):\n", plural(kind));
      if (max_rows == 0 || shown < max_rows)
        out += fmt::format("  {:>3} / {:<4} {}  ({})\n", s.failed_runs, s.findings, s.subject, s.last_kind), ++shown;
    }
    if (total > shown) out += fmt::format("  ... and {} more\n", total - shown);
  }
  std::string counts;
  for (const char* kind : {"host", "hca", "cable", "switch"}) {
    std::string names;
    size_t n = 0;
    for (const auto& s : r.golden)
      if (s.subject_kind == kind) names += "  " + s.subject + "\n", ++n;
    if (!n) continue;
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, n == 1 ? std::string(kind) : plural(kind));
    if (list_golden) out += fmt::format("golden {} ({}):\n{}", plural(kind), n, names);
  }
  if (!list_golden)
    out +=
        fmt::format("golden: {}{}\n", counts.empty() ? "none" : counts, counts.empty() ? "" : " (--list names them)");
  return out;
}

}  // namespace ibburn::report
