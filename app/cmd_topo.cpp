// `ibburn topo discover` (live fabric to a snapshot file) and `ibburn topo show` (summary
// of a snapshot, dump, cache file or the live fabric): topo/topo_command.h.
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/fabric_options.h"
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
});

}  // namespace
}  // namespace ibburn::app
