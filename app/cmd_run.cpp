// `ibburn run`: the acceptance / nightly job in one command (run/run_command.h): topo check,
// counters, preflight, plan, burn with counters sweeps, verdict over all evidence, the lists
// to act on.
#include "app/burn_options.h"
#include "app/command.h"
#include "app/route_check_options.h"
#include "audit/audit_command.h"
#include "run/run_command.h"

namespace ibburn::app {
namespace {

Registrar reg([](CLI::App& root) {
  CLI::App* cmd = root.add_subcommand(
      "run",
      "the whole burn-in job: topo check, counters, host preflight, plan over the live routes, burn with a counters "
      "sweep after every stage, one verdict, drain.txt and cables.csv (under mpirun/srun, or --transport sim)");
  auto c = add_burn_options(*cmd);
  auto r = std::make_shared<run::RunOptions>();
  cmd->get_option("--out")->default_str("ibburn-run");
  CLI::Option* fabric = cmd->get_option("--fabric");
  fabric->description(fabric->get_description() +
                      "; `none`: an Ethernet fabric (RoCE, TCP), no subnet to discover (the default on a host whose "
                      "RDMA ports are all Ethernet)");
  c->burn.out_dir = "ibburn-run";
  cmd->add_option("--wiring", r->wiring, "wiring CSV to check the fabric against before burning");
  cmd->add_flag("--burn-anyway", r->burn_anyway,
                "burn even when the topo check finds a split or no subnet manager, or the routes a credit loop");
  add_route_check_options(*cmd, r->route_vls, r->route_check);
  cmd->add_option("--thresholds", r->thresholds,
                  "rises allowed per stage, ibqueryerrors' threshold format (default: none except symbol errors, "
                  "judged by --max-ber)");
  cmd->add_option("--max-ber", r->max_symbol_ber, "symbol errors per bit received under load")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--coverage", r->coverage,
                  "share of its expected bytes a loaded cable direction must show on its switch port's data "
                  "counter (0: not judged)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--history", r->history, "SQLite history: record the run, say what is new, recovered, still failing");
  cmd->add_flag("--slurm-drain", r->slurm.drain, "scontrol update NodeName=NODE State=DRAIN for drain.txt's hosts");
  cmd->add_flag("--slurm-resume", r->slurm.resume,
                "return to service the job's hosts that passed, where the node's drain reason is ibburn's");
  cmd->add_option("--slurm-node-map", r->slurm.node_map, "HOST NODENAME lines: Slurm's node for a host");
  cmd->add_option("--allocation", r->allocation,
                  "sim: the job's hosts, slurm ($SLURM_JOB_NODELIST), @FILE or h1,h2; the others are not judged "
                  "(an MPI job's hosts are its ranks')");
  auto max_drain = std::make_shared<std::string>("5%");
  cmd->add_option("--max-drain", *max_drain,
                  "the most hosts one run drains, a count N or a share N% of the job's hosts (past it: nobody, and a "
                  "finding)")
      ->capture_default_str();
  cmd->add_option("--ibdiagnet", r->ibdiagnet,
                  "an ibdiagnet output taken before the burn: its health joins the verdict");
  cmd->add_option("--ibdiagnet-after", r->ibdiagnet_after, "an ibdiagnet output taken after the burn, read at its end");
  add_audit_policy_options(*cmd, r->audit);
  cmd->add_option("--job-sizes", r->job_sizes,
                  "price findings for jobs of these sizes: numbers of hosts, leaf, pod, all (default: leaf,pod,all)");
  cmd->add_option("--max-slowdown", r->max_slowdown,
                  "fail the run when the fabric as measured slows a collective by more (2% or 0.02; default: report "
                  "only)");
  cmd->add_option("--sim-console", r->sim_console,
                  "sim over a simulated fabric: ibsim's console pipe (default $SIMFABRIC_DIR/console)");
  cmd->callback([c, r, cmd, max_drain] {
    c->finish(*cmd);
    run::RunOptions o = *r;
    o.max_drain = run::parse_drain_limit(*max_drain);
    o.burn = c->burn;
    o.routes = c->routes;
    set_exit_code(run::run_command(std::move(o)));
  });
});

}  // namespace
}  // namespace ibburn::app
