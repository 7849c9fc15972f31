// `ibburn health`: switch and cable health from the vendor's own files (docs/health.md).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "health/health_command.h"

namespace ibburn::app {
namespace {

Registrar reg([](CLI::App& root) {
  auto o = std::make_shared<health::HealthCommandOptions>();
  CLI::App* cmd = root.add_subcommand(
      "health", "firmware and temperatures from ibdiagnet2.db_csv/.cables, ibswinfo and mlxlink --json files");
  cmd->add_option("inputs", o->inputs, "files, or directories searched recursively")->required();
  cmd->add_option("--json", o->json_out, "write {\"sources\": {...}, \"findings\": [...]} here");
  cmd->add_option("--node-name-map", o->node_name_map, "infiniband-diags node-name-map: names for the nodes' GUIDs");
  cmd->add_option("--expect", o->expect, "PSID=version per line: the firmware each board must run");
  cmd->add_option("--thresholds", o->thresholds, "switch_hot_c=N, switch_alarm_c=N (default 70 and 100)");
  cmd->callback([o] { set_exit_code(health::health_command(*o, std::cout)); });
});

}  // namespace
}  // namespace ibburn::app
