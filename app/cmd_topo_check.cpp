// `ibburn topo check` (the discovered fabric against the wiring plan: topo_check/topo_check_command.h) and
// `ibburn wiring name-switches` (a node-name-map inferred from the plan: wiring/wiring_command.h).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/fabric_options.h"
#include "topo_check/topo_check_command.h"
#include "wiring/wiring_command.h"

namespace ibburn::app {
namespace {

Registrar reg([](CLI::App& root) {
  CLI::App& topo = group(root, "topo", "Fabric topology: discover, show, check against the wiring plan");
  auto c = std::make_shared<topo_check::TopoCheckCommandOptions>();
  auto no_infer = std::make_shared<bool>(false);
  CLI::App& check = *topo.add_subcommand(
      "check", "Compare the fabric with the wiring plan; exit 0 = matches, 1 = findings, 2 = bad input");
  check.add_option("--wiring", c->wiring, "Wiring CSV (the plan)")->required();
  add_fabric_options(check, c->fabric);
  check.add_flag("--no-infer", *no_infer, "Do not infer names of switches whose names are not in the plan");
  check.add_option("--json", c->json_out, "Write {\"findings\": [...]} to this file");
  check.add_option("--max-details", c->max_details, "Details shown per kind (0 = all)")->capture_default_str();
  check.callback([c, no_infer] {
    c->infer_names = !*no_infer;
    set_exit_code(topo_check::topo_check_command(*c, std::cout, std::cerr));
  });

  CLI::App& wiring = group(root, "wiring", "Wiring lists (the plan of every cable): generate, derive, name");
  auto n = std::make_shared<wiring::NameSwitchesOptions>();
  CLI::App& name = *wiring.add_subcommand("name-switches",
                                          "Infer switch names from the plan (for switches with generic descriptions)");
  name.add_option("--wiring", n->wiring, "Wiring CSV (the plan)")->required();
  add_fabric_options(name, n->fabric);
  name.add_option("-o,--output", n->out, "node-name-map to write (confidence as a trailing comment)")->required();
  name.callback([n] { set_exit_code(wiring::wiring_name_switches_command(*n, std::cout)); });
});

}  // namespace
}  // namespace ibburn::app
