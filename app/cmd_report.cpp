// `ibburn report DIR` (HTML page, Prometheus textfile, history record) and `ibburn history`.
#include <chrono>
#include <iostream>
#include <memory>

#include "app/command.h"
#include "common/file_io.h"
#include "report/history.h"
#include "report/html_report.h"
#include "report/prometheus.h"
#include "topo/fabric_io.h"

namespace ibburn::app {
namespace {

struct ReportArgs {
  std::string dir, html, fabric, prometheus, history;
};

void add_report(CLI::App& root) {
  CLI::App* cmd = root.add_subcommand(
      "report", "Turn a run directory (summary.json, topo.json, counters.json, host-*.json) into an "
                "HTML page, Prometheus metrics and a history record");
  auto a = std::make_shared<ReportArgs>();
  cmd->add_option("DIR", a->dir, "run directory")->required();
  cmd->add_option("-o,--output", a->html, "write the self-contained HTML report here");
  cmd->add_option("--fabric", a->fabric, "fabric file (any topo format) for the map");
  cmd->add_option("--prometheus", a->prometheus, "write node_exporter textfile metrics here (.prom)");
  cmd->add_option("--history", a->history, "record the run in this SQLite database");
  cmd->callback([a] {
    const report::RunData run = report::load_run_dir(a->dir);
    if (!a->html.empty()) {
      std::unique_ptr<topo::Fabric> fabric;
      if (!a->fabric.empty()) fabric = std::make_unique<topo::Fabric>(topo::load_fabric_file(a->fabric));
      write_file_atomic(a->html, report::html_report(run, fabric.get(), "ibburn report: " + a->dir));
    }
    if (!a->prometheus.empty()) write_file_atomic(a->prometheus, report::prometheus_text(run));
    if (!a->history.empty()) {
      const auto now = std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch()).count();
      const auto id = report::History(a->history).record(a->dir, now, run);
      std::cerr << "report: recorded as run " << id << " in " << a->history << "\n";
    }
  });

  CLI::App* hist = root.add_subcommand("history", "Rank hosts, HCAs and cables by failures over the last N runs; list the golden set");
  auto db = std::make_shared<std::string>();
  auto last = std::make_shared<int>(10);
  auto rows = std::make_shared<size_t>(20);
  auto list = std::make_shared<bool>(false);
  hist->add_option("--db", *db, "SQLite history database (ibburn report --history)")->required();
  hist->add_option("--last", *last, "runs to consider (default 10)")->check(CLI::PositiveNumber);
  hist->add_option("--max-rows", *rows, "failing subjects shown per kind (0 = all; default 20)");
  hist->add_flag("--list", *list, "list the golden subjects by name, one a line (default: counts)");
  hist->callback([=] {
    std::cout << report::format_history(report::History(*db).rank(*last), *rows, *list);
  });
}

const Registrar registrar(add_report);

}  // namespace
}  // namespace ibburn::app
