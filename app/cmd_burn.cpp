// `ibburn burn`: MPI-launched traffic through every endpoint at once (burn/engine.h), or the
// fluid model over a fabric (plan/burn_command.h).
#include "app/burn_options.h"
#include "app/command.h"
#include "plan/burn_command.h"

namespace ibburn::app {
namespace {

Registrar reg([](CLI::App& root) {
  CLI::App* cmd = root.add_subcommand("burn",
                                      "line-rate traffic through every endpoint at once, stage after stage (run under "
                                      "mpirun or srun, one rank per endpoint)");
  auto c = add_burn_options(*cmd);
  cmd->callback([c, cmd] {
    c->finish(*cmd);
    set_exit_code(plan::burn_command(c->burn, c->routes));
  });
});

}  // namespace
}  // namespace ibburn::app
