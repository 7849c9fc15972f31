#pragma once
// What `ibburn run`'s steps (run/job_step.h) share: the options, the run directory, what each
// step leaves for the next (the fabric, its routes, the snapshot before traffic, the job's
// ranks and hosts) and the evidence so far. Plain members: each step's header says which it
// reads and which it fills, so a test sets up the state a step needs and runs that step alone.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "audit/audit_command.h"
#include "common/finding.h"
#include "common/systemic_causes.h"
#include "counters/sweep.h"
#include "localization/burn_localize.h"
#include "plan/plan_output.h"
#include "price/pricing.h"
#include "routing/route_model.h"
#include "run/counter_evidence.h"
#include "run/counter_localization.h"
#include "run/health_evidence.h"
#include "run/job_scope.h"
#include "run/modelled_counters.h"
#include "run/run_command.h"
#include "run/service_actions.h"
#include "run/sim_counters.h"
#include "run/sm_watch.h"
#include "run/topology_change.h"
#include "wiring/wiring.h"

namespace ibburn::run {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0);

struct JobState {
  explicit JobState(const RunOptions& options);

  const RunOptions& o;
  std::string dir;  // --out

  // The inputs (read_inputs): read before the fabric is touched, so a typo fails first.
  std::optional<wiring::Wiring> wiring;
  LoadErrorRules rules;
  audit::AuditPolicy policy;

  // topo: the fabric until routes takes it into the model; the cables' scopes for systemic
  // causes; topo check's and the audit's findings (topo.json).
  topo::FabricSource source;
  std::optional<std::string> no_subnet;  // why there is no fabric to discover (RoCE, TCP): run/fabric_steps.h
  std::optional<topo::Fabric> fabric;
  CableScopes scopes;
  std::vector<Finding> topo_findings;
  HealthCaptures health;  // health before / after

  // routes: the fabric with its routes, each HCA's host (node name -> host), pricing's view.
  std::shared_ptr<routing::RouteModel> model;
  std::map<std::string, std::string> host_of_hca;
  price::PriceOptions price_options;
  std::unique_ptr<price::PriceFabric> price_fabric;

  // endpoints and plan: the ranks, and the job's hosts once the ranks are known.
  plan::Endpoints endpoints;                                // --endpoints, read once, or every HCA port
  std::vector<uint64_t> given_guids;                        // --endpoints: rank -> port GUID
  std::vector<std::optional<topo::PortEnd>> ports_by_rank;  // the HCA port each rank drives
  std::string allocation_source;                            // --allocation: "slurm" or "list"
  std::optional<JobScope> scope;
  std::unique_ptr<localization::RouteExplainer> localizer;
  std::vector<std::string> ring_hosts;  // --pattern ring: its hosts in order

  // counters: the live sweeper and its watches, or the model's counters for a fabric from
  // files; the latest snapshot; each stage's findings.
  std::unique_ptr<counters::Sweeper> sweeper;
  std::optional<counters::Snapshot> last;
  std::unique_ptr<TopologyWatch> topology;
  std::unique_ptr<SmWatch> sm;
  std::unique_ptr<ModelledCounters> modelled;
  std::unique_ptr<SimDataCounters> sim_counters;
  std::unique_ptr<CounterLocalization> by_counters;  // cables named by their ports' counters
  double coverage = 0;                               // --coverage, 0 once it cannot be judged
  std::vector<double> expected_total;                // octets per cable direction, all stages
  std::vector<Finding> counter_findings;

  // price (with the burn's last summary) and history.
  std::optional<price::PriceReport> price;
  std::optional<price::RingCheck> ring_check;
  std::optional<burn::JobStep> price_step;  // recorded after the burn's
  ServiceCosts costs;
  std::set<std::string> failed_before;  // cables history saw fail in the previous run

  std::vector<burn::JobStep> steps;  // summary.json's job.steps
  int stage = 0;                     // the stage running

  void say(const std::string& line) const;  // "run: LINE" unless --quiet
  void record(const std::string& name, Clock::time_point t0, const std::string& outcome);
  void write_topo() const;  // topo.json: topo_findings
  // The counters' findings: each stage's, and the fabric's changes since before stage 1.
  std::vector<Finding> counter_evidence() const;
  // counters.json, what the page and history read of a run directory: the latest snapshot
  // and the counters' findings, rewritten when a sweep adds to them.
  void write_counters() const;
  std::vector<topo::PortEnd> endpoints_of_ranks() const;
  // The job's hosts are known (the sim's endpoints, the MPI ranks'): findings about the other
  // hosts are dropped from here on, topo.json's among them.
  void set_scope(const std::string& source);
};

// --wiring, --thresholds, --max-symbol-ber and the audit's policy. Throws InputError naming
// the file and line.
void read_inputs(JobState& job);

}  // namespace ibburn::run
