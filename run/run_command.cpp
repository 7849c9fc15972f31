#include "run/run_command.h"

#include <iostream>

#include <fmt/format.h>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/interrupt.h"
#include "fluid/simulated_burn.h"
#include "run/fabric_steps.h"
#include "run/health_evidence.h"
#include "run/history_step.h"
#include "run/job_outputs.h"
#include "run/plan_step.h"
#include "run/stage_sweep.h"
#include "run/verdict.h"
#include "slurm/scontrol.h"

namespace ibburn::run {
namespace {

// Rank 0's side of the job: its steps in order (run/job_step.h). As the burn session's
// observer it sees every stage start and end (the counters' sweeps), every summary written
// (the verdict goes into it and the lists next to it) and asks for the localisation's probes.
class Job : public burn::SessionObserver {
 public:
  explicit Job(const RunOptions& o) : job_(o) {}

  // Before any traffic. Throws Error to stop (bad input: 2; split/no SM: 1).
  void prepare() {
    make_dirs(job_.dir);
    burn::write_summary(job_.dir + "/summary.json", job_summary(job_, burn::RunState::Running));
    read_inputs(job_);  // a typo fails before the fabric is touched
    if (!job_.o.ibdiagnet.empty()) run_step(job_, HealthStep(job_.o.ibdiagnet, "before"));
    run_step(job_, TopoStep());
    if (const Finding* cause = stopping_cause(job_)) stop(job_, *cause);
    if (!job_.o.audit.partitions.empty()) run_step(job_, AuditStep());
    run_step(job_, RoutesStep());
    run_step(job_, RouteCheckStep());
    if (const Finding* cause = stopping_cause(job_)) stop(job_, *cause);
    run_step(job_, EndpointsStep());
    run_step(job_, CountersStep());
  }

  // The sim transport: its ranks are the endpoints, its counters the fabric's or the model's.
  fluid::SimulatedBurn simulated() {
    fluid::SimulatedBurn run;
    run_step(job_, SimPlanStep(run));
    job_.record("host", Clock::now(), "skipped: the sim transport has no hosts");
    count_simulated_traffic(job_, run);
    run.tick = [this](double elapsed) {
      if (!job_.o.burn.quiet)
        std::cerr << fmt::format("run: stage {} {:.0f}/{:.0f} s, {} counter finding(s) so far\n", job_.stage, elapsed,
                                 std::chrono::duration<double>(job_.o.burn.duration).count(),
                                 job_.counter_findings.size());
    };
    return run;
  }

  // MPI: the ranks' endpoints are known now.
  std::optional<burn::Plan> plan_for(const std::vector<burn::EndpointInfo>& eps) override {
    RankPlanStep step(eps);
    run_step(job_, step);
    return std::move(step.plan);
  }

  void stage_starting(int index, const burn::Stage& stage) override { sweep_.starting(job_, index, stage); }
  void stage_finished(const burn::StageResult& result) override { sweep_.finished(job_, result); }
  void explain(burn::Summary& s, const std::vector<burn::EndpointInfo>& eps) override { judge(job_, s, eps); }
  std::optional<burn::Stage> follow_up(const burn::Summary& s, const std::vector<burn::EndpointInfo>& eps,
                                       int extra_run) override {
    return job_.localizer ? job_.localizer->follow_up(s, eps, extra_run) : std::nullopt;
  }

  // After the burn: history, the health capture after it, then the outputs.
  int finish(int burn_code, Clock::time_point burn_t0) {
    job_.record("burn", burn_t0,
                burn_code == kExitOk         ? "ok"
                : burn_code == kExitFindings ? "findings"
                                             : "exit " + std::to_string(burn_code));
    if (job_.price_step) job_.steps.push_back(*job_.price_step);  // priced with the burn's last summary
    burn::BurnSummary doc = burn::load_summary(job_.dir + "/summary.json");
    if (!doc.job) doc.job.emplace();
    if (!job_.o.history.empty()) run_step(job_, HistoryStep(doc));
    if (!job_.o.ibdiagnet_after.empty()) {
      run_step(job_, HealthStep(job_.o.ibdiagnet_after, "after"));
      add_findings(doc, job_.health.after_burn());
    }
    return publish(job_, doc, burn_code);
  }

 private:
  JobState job_;
  StageSweep sweep_;
};

}  // namespace

int run_command(RunOptions o) {
  if (o.coverage < 0 || o.coverage > 1) throw InputError("--coverage", 0, "must be within 0..1");
  install_interrupt_handlers();
  if (!o.slurm.node_map.empty())
    slurm::parse_slurm_node_map(read_file(o.slurm.node_map), o.slurm.node_map);  // exit 2 now
  if (o.burn.transport == burn::TransportKind::Sim) {
    if (o.routes.routes.fabric.is_none())
      throw InputError("--fabric", 0, "'none' is for an MPI transport: --transport sim burns a fabric");
    auto job = std::make_shared<Job>(o);
    job->prepare();
    fluid::SimulatedBurn run = job->simulated();
    burn::BurnOptions b = o.burn;
    b.observer = [job] { return job; };
    const auto t0 = Clock::now();
    const int rc = fluid::run_simulated_burn(run, b);
    return job->finish(rc, t0);
  }
  if (!o.routes.degrade.empty()) throw InputError("--degrade", 0, "is for --transport sim");
  if (!o.allocation.empty())
    throw InputError("--allocation", 0, "is for --transport sim: an MPI job's hosts are its ranks'");
  // Made on rank 0 only, by the burn, once MPI is up.
  std::shared_ptr<Job> job;
  burn::BurnOptions b = o.burn;
  b.plan_from_observer = true;
  b.observer = [&job, &o]() -> std::shared_ptr<burn::SessionObserver> {
    job = std::make_shared<Job>(o);
    job->prepare();
    return job;
  };
  const auto t0 = Clock::now();
  const int rc = burn::run_burn(b);
  return job ? job->finish(rc, t0) : rc;
}

}  // namespace ibburn::run
