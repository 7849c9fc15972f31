#include "app/route_check_options.h"

namespace ibburn::app {

void add_route_check_options(CLI::App& cmd, route_check::VlSource& vls, route_check::RouteCheckOptions& check) {
  cmd.add_option("--per-vl", vls.per_vl,
                 "judge credit loops per VL from the SL2VL tables and the SA's path SLs: yes, no, or auto (again per "
                 "VL when one graph shows a loop)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "yes", "no"}));
  cmd.add_option("--vls", vls.file, "SL2VL tables and path SLs saved earlier with --save-vls");
  cmd.add_option("--save-vls", vls.save, "write the SL2VL tables and path SLs read live");
  cmd.add_option("--balance-ratio", check.balance_ratio,
                 "flag equal ports whose destinations' max over min exceeds this")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1000.0));
}

}  // namespace ibburn::app
