#include "report/report_command.h"

#include <memory>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/file_io.h"
#include "report/history.h"
#include "report/history_nights.h"
#include "report/html_report.h"
#include "report/prometheus.h"
#include "report/run_data.h"
#include "report/run_verdict.h"

namespace ibburn::report {

namespace {
constexpr int kNightsShown = 14;  // two weeks of nightly runs side by side
}  // namespace

int report_command(const ReportCommandOptions& o, std::ostream& err) {
  const RunData run = load_run_dir(o.dir);
  // Recorded first, so the page's nights end with this one.
  if (!o.history.empty()) {
    const auto id = History(o.history).record(o.dir, o.unix_time, run);
    err << "report: recorded as run " << id << " in " << o.history << "\n";
  }
  if (!o.html.empty()) {
    std::unique_ptr<topo::Fabric> fabric;
    if (o.with_fabric && !o.loaded) fabric = std::make_unique<topo::Fabric>(o.fabric.load());
    std::optional<Nights> nights;
    const std::string db = o.nights.empty() ? o.history : o.nights;
    if (!db.empty()) nights = nights_side_by_side(History(db).last_runs(kNightsShown), 200, untested_cables(run));
    write_file_atomic(o.html, html_report(run, o.loaded ? o.loaded : fabric.get(), "ibburn report: " + o.dir,
                                          nights ? &*nights : nullptr));
  }
  if (!o.prometheus.empty()) write_file_atomic(o.prometheus, prometheus_text(run));
  const RunVerdict v = run_verdict(run);
  if (v.outcome == RunOutcome::Incomplete) {
    err << fmt::format("report: {}: INCOMPLETE: {}; {} finding(s) so far\n", o.dir, v.why_incomplete,
                       v.findings.size());
    return kExitFindings;
  }
  err << fmt::format("report: {}: {}: {} finding(s){}\n", o.dir, headline(v.outcome), v.findings.size(),
                     run.drain ? fmt::format(", {} host(s) in drain.txt", run.drain->hosts.size()) : "");
  return kExitOk;
}

}  // namespace ibburn::report
