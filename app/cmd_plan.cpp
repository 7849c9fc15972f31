// `ibburn plan`: stages of flows that load every cable, the coverage proof, and a fluid
// simulation of the plan with localisation of slow flows (plan/plan_command.h).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/fabric_options.h"
#include "plan/plan_command.h"

namespace ibburn::app {

void add_route_options(CLI::App& cmd, routing::RouteOptions& a, bool discovery_knobs) {
  FabricOptionSet set;
  set.discovery_knobs = discovery_knobs;
  add_fabric_options(cmd, a.fabric, set);
  cmd.add_option("--routing", a.routing, "lft (switch forwarding tables) or adaptive")
      ->check(CLI::IsMember({"lft", "adaptive"}));
  cmd.add_option("--lfts", a.lfts, "forwarding tables saved earlier with --save-lfts");
  cmd.add_option("--save-lfts", a.save_lfts, "write the forwarding tables read live");
}

namespace {

Registrar reg([](CLI::App& root) {
  auto args = std::make_shared<plan::PlanCommandOptions>();
  CLI::App* cmd =
      root.add_subcommand("plan", "Plan burn stages that load every cable near line rate; prove and simulate them");
  add_route_options(*cmd, args->routes);
  cmd->add_option("--endpoints", args->endpoints,
                  "rank -> HCA port GUID file, or a burn's results.jsonl (default: every HCA port)");
  // --out is the older spelling: --out names run directories elsewhere.
  cmd->add_option("-o,--output,--out", args->out, "plan JSON for `ibburn burn --plan`");
  cmd->add_option("--proof", args->proof, "coverage proof JSON (per cable direction: stage, load)");
  cmd->add_option("--cover", args->cover, "load a cable must reach to count as burned")->check(CLI::Range(0.1, 1.0));
  cmd->add_option("--max-stages", args->max_stages, "stop after this many stages")->check(CLI::PositiveNumber);
  cmd->add_flag("--simulate", args->simulate, "run the plan through the fluid model and localise slow flows");
  cmd->add_option("--degrade", args->degrade, "with --simulate: NODE[PORT]=FRACTION cable capacity");
  cmd->add_option("--simulation-out", args->simulation_out, "with --simulate: JSON of slow flows and suspects");
  cmd->require_subcommand(0, 1);
  cmd->callback([cmd, args] {
    if (!cmd->got_subcommand("localize")) set_exit_code(plan::plan_command(*args, std::cout));
  });
  auto routes = std::make_shared<routing::RouteOptions>();
  auto dir = std::make_shared<std::string>();
  CLI::App* loc = cmd->add_subcommand(
      "localize", "Name the cables behind a burn's slow flows (reads DIR/results.jsonl and DIR/summary.json)");
  loc->add_option("dir", *dir, "burn output directory")->required();
  add_route_options(*loc, *routes);
  loc->callback([routes, dir] { set_exit_code(plan::plan_localize_command(*routes, *dir, std::cout, std::cerr)); });
});

}  // namespace
}  // namespace ibburn::app
