#pragma once
// `ibburn run`: the acceptance / nightly burn as one job. Rank 0 does the fabric's side with
// the same module code as the standalone commands: topo check against the wiring list (a
// split or an island without a subnet manager stops the job before any traffic), the routes
// the SM programmed judged (a credit loop stops it too), a counters
// snapshot of every port, the plan over the live routes, the burn's stages with a counters
// sweep after each (errors under load, coverage from the switches' own data counters), the
// verdict over all evidence, and the outputs a site acts on (drain.txt, cables.csv, the
// page, Prometheus, history). Every rank calls run_command under MPI; with the sim transport it
// runs in one process.
#include <string>

#include "audit/audit_command.h"
#include "burn/engine.h"
#include "plan/burn_command.h"
#include "route_check/routes_command.h"
#include "run/drain_guard.h"
#include "slurm/actions.h"

namespace ibburn::run {

struct RunOptions {
  burn::BurnOptions burn;         // as `ibburn burn`: transport, duration, --out, --plan, ...
  plan::BurnRouteOptions routes;  // the fabric, its routes, --endpoints, --degrade, --probes
  std::string wiring;             // wiring CSV; empty: no topo check
  bool burn_anyway = false;       // burn even when the fabric is split or has no SM
  std::string thresholds;         // rises allowed under load, ibqueryerrors format
  double max_symbol_ber = 1e-12;  // symbol errors per bit received
  double coverage = 0.8;          // share of the expected bytes a loaded cable must show; 0: off
  std::string history;            // SQLite history to record the run in and compare with
  slurm::SlurmOptions slurm;      // --slurm-drain, --slurm-resume, --slurm-node-map (docs/slurm.md)
  // The sim transport's hosts: "slurm" ($SLURM_JOB_NODELIST), "@FILE" or "h1,h2"; empty: every
  // host of --endpoints (an MPI job's hosts are its ranks'). Partial jobs: run/job_scope.h.
  std::string allocation;
  DrainLimit max_drain;  // the most hosts one run drains (default 5% of the job's)
  // Sim transport over a simulated fabric: ibsim's console pipe, where the model's bytes are
  // written into the switches' data counters. Empty: $SIMFABRIC_DIR/console when it exists.
  std::string sim_console;
  // ibdiagnet outputs taken before and after the burn: switch and cable health (run/health_evidence.h).
  std::string ibdiagnet, ibdiagnet_after;
  // The pricing (docs/price.md): job sizes ("64,512,all"; empty: leaf, pod, all) and the
  // go/no-go's limit ("2%"; empty: report only).
  std::string job_sizes, max_slowdown;
  // The fabric audit before any traffic, when a partitions file is given (docs/audit.md).
  audit::PolicyOptions audit;
  // The forwarding tables judged before any traffic (docs/topo-check.md, "Routes"): a credit
  // loop stops the job as a split does.
  route_check::VlSource route_vls;
  route_check::RouteCheckOptions route_check;
};

// The exit code: 0 the job passed, 1 findings (or stopped before traffic), 2 bad input,
// 3 environment, 130 interrupted. Throws Error for bad input before any traffic.
int run_command(RunOptions options);

}  // namespace ibburn::run
