#include "run/stage_sweep.h"

#include <filesystem>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "common/file_io.h"
#include "common/interrupt.h"
#include "counters/counter_delta.h"
#include "counters/snapshot_json.h"
#include "fluid/fluid.h"

namespace ibburn::run {
namespace {

// Links that go down and come back within a stage are seen by polls this often (or less, on a
// fabric whose poll takes longer: run/link_state_poll.h).
constexpr std::chrono::milliseconds kLinkStatePollInterval{1000};

// The sweep after a stage against the one before stage 1 (switches and cables gone), and
// the SM still there. Errors under load that a change explains become its details.
void fabric_changes(JobState& job, const counters::Snapshot& now, int stage, std::vector<Finding>& errors) {
  if (!job.topology || !job.sweeper) return;
  job.topology->compare(now, stage);
  job.topology->absorb(errors);
  if (auto lost = job.sm->check(topo::probe_master_sm(job.sweeper->mad_window()), stage))
    job.counter_findings.push_back(*lost);
}

}  // namespace

void StageSweep::starting(JobState& job, int index, const burn::Stage& stage) {
  job.stage = index;
  t0_ = Clock::now();
  if (!job.o.burn.quiet)
    std::cerr << fmt::format("run: stage {} \"{}\": {} flows\n", index, stage.name, stage.flows.size());
  // observe() touches only what compare() reads after the poll has stopped (finished).
  if (job.sweeper && job.topology)
    poll_ = std::make_unique<LinkStatePoll>(*job.sweeper, kLinkStatePollInterval,
                                            [&job](const counters::Snapshot& s) { job.topology->observe(s); });
}

void StageSweep::finished(JobState& job, const burn::StageResult& result) {
  poll_.reset();  // before the sweeper's next use
  if (!job.last) return;
  const double seconds = std::chrono::duration<double>(job.o.burn.duration).count();
  const auto sweep_t0 = Clock::now();
  counters::Snapshot now = job.sweeper ? job.sweeper->sweep() : job.modelled->snapshot();
  const double first_sweep = since(sweep_t0);
  // The simulated fabric applies the model's bytes between MADs, so a sweep may read a
  // port before its line was applied: once the last line shows, every line was applied
  // before one more sweep starts.
  if (job.sim_counters) {
    for (int i = 0; !job.sim_counters->applied(now) && i < 100 && !interrupted(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      now = job.sweeper->sweep();
    }
    now = job.sweeper->sweep();
  }
  // The first sweep is what hardware costs; the sim's waits for ibsim come on top. The
  // model's counters (a fabric from files) are not measurements: kept in memory only.
  if (job.sweeper) {
    job.steps.push_back(
        {fmt::format("sweep {}", result.index), first_sweep,
         fmt::format("{} ports, {:.1f} s with the simulated fabric's catch-up", now.ports.size(), since(sweep_t0))});
    write_file_atomic(fmt::format("{}/counters-stage-{}.json", job.dir, result.index),
                      counters::snapshot_json_text(now));
  }
  const auto& model = *job.model;
  const auto deltas = counters::compute_deltas(*job.last, now);
  auto errors = errors_under_load(deltas, job.rules, result.index);
  fabric_changes(job, now, result.index, errors);
  const auto expected = expected_octets(model, job.ports_by_rank, result);
  if (job.expected_total.empty()) job.expected_total.assign(expected.size(), 0.0);
  for (size_t e = 0; e < expected.size(); ++e) job.expected_total[e] += expected[e];
  std::vector<Finding> coverage;
  if (job.coverage > 0)
    coverage = coverage_findings(model, job.topology ? job.topology->judgeable(model, expected) : expected,
                                 seen_octets(model, deltas), job.coverage, seconds, result.index);
  if (!job.by_counters) job.by_counters = std::make_unique<CounterLocalization>(model);
  job.by_counters->add_stage(deltas, result.index);
  job.by_counters->explain_shortfalls(coverage);
  if (!job.o.burn.quiet)
    std::cerr << fmt::format(
        "run: stage {} counters: {} port(s) with errors under load, {} cable finding(s) from "
        "data counters ({:.1f} s)\n",
        result.index, errors.size(), coverage.size(), since(t0_));
  for (auto* v : {&errors, &coverage}) job.counter_findings.insert(job.counter_findings.end(), v->begin(), v->end());
  job.last = std::move(now);
  if (job.sweeper) job.write_counters();
}

void count_simulated_traffic(JobState& job, fluid::SimulatedBurn& run) {
  const auto capacity = fluid::degraded_capacities(*job.model->cables, run.degrade);
  if (!job.sweeper) {
    // A fabric from files has no counters to sweep: the model's own stand in for them.
    job.modelled = std::make_unique<ModelledCounters>(*job.model, capacity);
    job.last = job.modelled->snapshot();
    run.on_traffic = [&job](const std::vector<double>& g, double s) { job.modelled->add(g, s); };
    return;
  }
  std::string console = job.o.sim_console;
  if (console.empty())
    if (const char* d = std::getenv("SIMFABRIC_DIR"); d && std::filesystem::exists(std::string(d) + "/console"))
      console = std::string(d) + "/console";
  if (!console.empty()) {
    job.sim_counters = std::make_unique<SimDataCounters>(console, *job.model, capacity);
    job.sim_counters->start_from(*job.last);
    run.on_traffic = [&job](const std::vector<double>& g, double s) { job.sim_counters->add(g, s); };
  } else if (job.coverage > 0) {
    job.coverage = 0;
    job.say(
        "coverage from counters: not judged: the sim transport's bytes reach a simulated fabric's counters "
        "only through its console (--sim-console)");
  }
}

}  // namespace ibburn::run
