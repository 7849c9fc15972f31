// `ibburn price`: what each finding of a saved run, or a what-if, costs the site's jobs in
// training time, and the go/no-go (price/price_command.h, docs/price.md).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "price/price_command.h"

namespace ibburn::app {
namespace {

Registrar reg([](CLI::App& root) {
  auto o = std::make_shared<price::PriceCommandOptions>();
  CLI::App* cmd = root.add_subcommand(
      "price", "Price findings and what-ifs in training time: ring, tree and all-to-all slowdowns per job size");
  add_route_options(*cmd, o->routes);
  cmd->add_option("--wiring", o->wiring, "the wiring list: names for switches the fabric names generically");
  cmd->add_option("--results", o->results, "a run's directory: price its summary.json's findings");
  cmd->add_option("--degrade", o->degrade, "what if NODE[PORT]=FRACTION: the cable at that share of its rate");
  cmd->add_option("--down", o->down, "what if NODE[PORT]: the cable down");
  cmd->add_option("--drain", o->drain, "what if HOST is drained: the scheduler places no job on it");
  cmd->add_option("--job-sizes", o->price.job_sizes, "hosts per job: numbers, leaf, pod, all (default: leaf,pod,all)");
  cmd->add_option("--max-slowdown", o->max_slowdown,
                  "exit 1 when the fabric as measured slows a collective by more (2% or 0.02; default: report only)");
  cmd->add_option("--json", o->json, "write the prices (as summary.json's \"price\") to this file");
  cmd->add_option("--top", o->top, "the costliest repairs to print")->check(CLI::NonNegativeNumber);
  cmd->callback([o] { set_exit_code(price::price_command(*o, std::cout)); });
});

}  // namespace
}  // namespace ibburn::app
