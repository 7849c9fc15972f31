// `ibburn plan`: stages of flows that load every cable, the coverage proof, and a fluid
// simulation of the plan with localisation of slow flows.
#include <iostream>
#include <memory>

#include "app/command.h"
#include "common/error.h"
#include "common/file_io.h"
#include "plan/burn_localize.h"
#include "plan/plan_output.h"
#include "plan/planner.h"
#include "plan/route_model.h"
#include "plan/simulate.h"

namespace ibburn::app {
namespace {

struct PlanArgs {
  plan::RouteOptions routes;
  std::string endpoints;
  std::string out;
  std::string proof;
  double cover = 0.9;
  int max_stages = 16;
  bool simulate = false;
  std::vector<std::string> degrade;
  std::string simulation_out;
};

void run_plan(const PlanArgs& a) {
  auto routing = plan::load_route_model(a.routes);
  const topo::Fabric& fabric = routing->fabric;
  const plan::CableIndex& cables = *routing->cables;
  const plan::Router* router = routing->router.get();

  std::vector<topo::PortEnd> endpoints =
      a.endpoints.empty() ? plan::all_hca_ports(fabric)
                          : plan::parse_endpoints(read_file(a.endpoints), a.endpoints, fabric);
  plan::PlanOptions po;
  po.cover_fraction = a.cover;
  po.max_stages = a.max_stages;
  plan::PlanResult result = plan::make_plan(fabric, cables, *router, endpoints, po);

  std::cout << "plan: " << endpoints.size() << " endpoints, " << cables.size()
            << " cable directions, " << result.stages.size() << " stage(s) (lower bound "
            << result.lower_bound << "), covered " << result.covered << "/" << cables.size()
            << " at >= " << static_cast<int>(a.cover * 100) << "% load\n";
  for (const auto& n : result.notes) std::cout << "  note: " << n << "\n";
  if (!a.out.empty())
    write_file_atomic(a.out, burn::to_json(plan::to_burn_plan(result, "ibburn plan")).dump(1) + "\n");
  if (!a.proof.empty())
    write_file_atomic(a.proof, plan::coverage_proof(fabric, cables, result).dump(1) + "\n");

  int rc = result.covered == cables.size() ? kExitOk : kExitFindings;
  if (a.simulate) {
    std::unordered_map<plan::EdgeId, double> degrade;
    for (const auto& d : a.degrade) plan::parse_degrade(d, fabric, cables, degrade);
    auto rep = plan::simulate_plan(fabric, cables, *router, endpoints, result.stages, degrade, {});
    size_t slow = 0;
    for (const auto& f : rep.flows) slow += f.slow;
    for (size_t s = 0; s < rep.stage_aggregate_gbps.size(); ++s)
      std::cout << "simulate: stage " << s + 1 << (s >= result.stages.size() ? " (probe)" : "")
                << ": aggregate " << static_cast<long long>(rep.stage_aggregate_gbps[s]) << " Gb/s\n";
    std::cout << "simulate: " << slow << " slow flow(s) of " << rep.flows.size() << "\n";
    for (const auto& s : rep.suspects)
      std::cout << "  suspect cable " << cables.describe(fabric, s.edge) << " (confidence "
                << static_cast<int>(s.confidence * 100) << "%, " << s.slow_explained
                << " slow flows, " << s.healthy_through << " healthy)\n";
    if (!a.simulation_out.empty())
      write_file_atomic(a.simulation_out,
                        plan::simulation_to_json(fabric, cables, endpoints, rep).dump(1) + "\n");
    if (slow) rc = kExitFindings;
  }
  set_exit_code(rc);
}

// `ibburn plan localize DIR`: the cables behind a burn's slow flows.
void run_localize(const PlanArgs& a, const std::string& dir) {
  auto routing = plan::load_route_model(a.routes);
  plan::BurnOutcome outcome = plan::load_burn_outcome(dir);
  std::vector<std::string> notes;
  auto suspects = plan::localize_burn(routing->fabric, *routing->cables, *routing->router, outcome, notes);
  for (const auto& n : notes) std::cerr << "ibburn: plan localize: " << n << "\n";
  if (suspects.empty()) std::cout << "localize: no slow flow to explain\n";
  for (const auto& s : suspects)
    std::cout << "suspect cable " << routing->cables->describe(routing->fabric, s.edge) << " (confidence "
              << static_cast<int>(s.confidence * 100) << "%, " << s.slow_explained << " slow flows, "
              << s.healthy_through << " healthy)\n";
  write_file_atomic(dir + "/suspects.json",
                    nlohmann::json{{"suspects", plan::suspects_to_json(routing->fabric, *routing->cables, suspects)},
                                   {"notes", notes}}.dump(1) + "\n");
  set_exit_code(suspects.empty() ? kExitOk : kExitFindings);
}

}  // namespace

void add_route_options(CLI::App& cmd, plan::RouteOptions& a) {
  cmd.add_option("--fabric", a.fabric, "fabric file (snapshot or ibnetdiscover text) or 'live'");
  cmd.add_option("-C,--ca", a.ca, "HCA for live discovery");
  cmd.add_option("-P,--port", a.port, "HCA port for live discovery");
  cmd.add_option("--node-name-map", a.node_name_map, "infiniband-diags node-name-map");
  cmd.add_option("--routing", a.routing, "lft (switch forwarding tables) or adaptive")
      ->check(CLI::IsMember({"lft", "adaptive"}));
  cmd.add_option("--lfts", a.lfts, "forwarding tables saved earlier with --save-lfts");
  cmd.add_option("--save-lfts", a.save_lfts, "write the forwarding tables read live");
}

namespace {

Registrar reg([](CLI::App& root) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = root.add_subcommand(
      "plan", "Plan burn stages that load every cable near line rate; prove and simulate them");
  add_route_options(*cmd, args->routes);
  cmd->add_option("--endpoints", args->endpoints,
                  "rank -> HCA port GUID file, or a burn's results.jsonl (default: every HCA port)");
  cmd->add_option("-o,--out", args->out, "plan JSON for `ibburn burn --plan`");
  cmd->add_option("--proof", args->proof, "coverage proof JSON (per cable direction: stage, load)");
  cmd->add_option("--cover", args->cover, "load a cable must reach to count as burned")->check(CLI::Range(0.1, 1.0));
  cmd->add_option("--max-stages", args->max_stages, "stop after this many stages")->check(CLI::PositiveNumber);
  cmd->add_flag("--simulate", args->simulate, "run the plan through the fluid model and localise slow flows");
  cmd->add_option("--degrade", args->degrade, "with --simulate: NODE[PORT]=FRACTION cable capacity");
  cmd->add_option("--simulation-out", args->simulation_out, "with --simulate: JSON of slow flows and suspects");
  cmd->require_subcommand(0, 1);
  cmd->callback([cmd, args] {
    if (!cmd->got_subcommand("localize")) run_plan(*args);
  });
  auto largs = std::make_shared<PlanArgs>();
  auto dir = std::make_shared<std::string>();
  CLI::App* loc = cmd->add_subcommand("localize", "Name the cables behind a burn's slow flows (reads DIR/results.jsonl and DIR/summary.json)");
  loc->add_option("dir", *dir, "burn output directory")->required();
  add_route_options(*loc, largs->routes);
  loc->callback([largs, dir] { run_localize(*largs, *dir); });
});

}  // namespace
}  // namespace ibburn::app
