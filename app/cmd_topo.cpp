// `ibburn topo discover` (live fabric to a snapshot file), `ibburn topo show` (summary of a
// snapshot, dump, cache file or the live fabric): topo/topo_command.h; `ibburn topo routes`
// (the forwarding tables judged): route_check/routes_command.h.
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/fabric_options.h"
#include "app/route_check_options.h"
#include "topo/topo_command.h"

namespace ibburn::app {
namespace {

struct ShowArgs {
  topo::FabricSource source;
  std::string json;
};

Registrar reg([](CLI::App& root) {
  CLI::App& topo = group(root, "topo", "Fabric topology: discover, show, check against the wiring plan");

  auto discover_source = std::make_shared<topo::FabricSource>();
  auto output = std::make_shared<std::string>();
  CLI::App* discover = topo.add_subcommand(
      "discover", "Discover the live fabric and write a snapshot (.json: JSON, else ibnetdiscover text)");
  add_fabric_options(*discover, *discover_source, FabricOptionSet().live_only());
  discover->add_option("-o,--output", *output, "Snapshot file to write")->required();
  discover->callback([discover_source, output] {
    set_exit_code(topo::topo_discover_command(discover_source->live, *output, std::cerr));
  });

  auto show_args = std::make_shared<ShowArgs>();
  CLI::App* show =
      topo.add_subcommand("show", "Summary of a fabric: switches, HCAs, links by rate, ports down, islands");
  add_fabric_options(*show, show_args->source, FabricOptionSet().positional_name("source"));
  // A bare --json (the older spelling) prints the JSON summary on stdout.
  show->add_option("--json", show_args->json, "Write the summary as JSON to this file (`-` or none: stdout)")
      ->expected(0, 1);
  show->callback([show, show_args] {
    const std::string json = show->count("--json") && show_args->json.empty() ? "-" : show_args->json;
    set_exit_code(topo::topo_show_command(show_args->source, json, std::cout));
  });

  auto routes = std::make_shared<route_check::RoutesCommandOptions>();
  CLI::App* cmd = topo.add_subcommand(
      "routes", "Judge the forwarding tables the SM programmed: credit loops, unreachable LIDs, unbalanced ports");
  add_fabric_options(*cmd, routes->fabric);
  cmd->add_option("--lfts", routes->lfts,
                  "forwarding tables from a file: --save-lfts JSON, ibdiagnet2.fdbs, opensm.fdbs or opensm-lfts.dump");
  cmd->add_option("--save-lfts", routes->save_lfts, "write the forwarding tables read live");
  add_route_check_options(*cmd, routes->vls, routes->check);
  cmd->add_option("--json", routes->json_out, "write the findings and the graph's size as JSON");
  cmd->add_option("--max-details", routes->max_details, "details shown per kind (0: all)");
  cmd->callback([routes] { set_exit_code(route_check::routes_command(*routes, std::cout, std::cerr)); });
});

}  // namespace
}  // namespace ibburn::app
