// `ibburn report DIR` (HTML page, Prometheus textfile, history record) and `ibburn history`.
#include <chrono>
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/site_options.h"
#include "app/fabric_options.h"
#include "report/history.h"
#include "report/report_command.h"

namespace ibburn::app {
namespace {

void add_report(CLI::App& root) {
  CLI::App* cmd =
      root.add_subcommand("report",
                          "Turn a run directory (summary.json, topo.json, counters.json, host-*.json) into an "
                          "HTML page, Prometheus metrics and a history record");
  auto a = std::make_shared<report::ReportCommandOptions>();
  cmd->add_option("DIR", a->dir, "run directory")->required();
  cmd->add_option("-o,--output", a->html, "write the self-contained HTML report here");
  add_fabric_options(*cmd, a->fabric, FabricOptionSet().default_is("no map"));
  // The names label the map: without a fabric there is nothing to name.
  cmd->get_option("--node-name-map")->needs("--fabric");
  cmd->add_option("--prometheus", a->prometheus, "write node_exporter textfile metrics here (.prom)");
  cmd->add_option("--history", a->history, "record the run in this SQLite database");
  cmd->callback([cmd, a] {
    a->with_fabric = given(*cmd, "--fabric");
    a->unix_time =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    set_exit_code(report::report_command(*a, std::cerr));
  });

  CLI::App* hist = root.add_subcommand(
      "history", "Rank hosts, HCAs and cables by failures over the last N runs; list the golden set");
  auto db = std::make_shared<std::string>();
  auto last = std::make_shared<int>(10);
  auto rows = std::make_shared<size_t>(20);
  auto list = std::make_shared<bool>(false);
  hist->add_option("--db", *db, "SQLite history database (ibburn report --history)")->required();
  hist->add_option("--last", *last, "runs to consider (default 10)")->check(CLI::PositiveNumber);
  hist->add_option("--max-rows", *rows, "failing subjects shown per kind (0 = all; default 20)");
  hist->add_flag("--list", *list, "list the golden subjects by name, one a line (default: counts)");
  hist->callback([=] { std::cout << report::format_history(report::History(*db).rank(*last), *rows, *list); });
}

const Registrar registrar(add_report);

}  // namespace
}  // namespace ibburn::app
