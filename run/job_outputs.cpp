#include "run/job_outputs.h"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "price/price_command.h"
#include "report/report_command.h"
#include "slurm/scontrol.h"

namespace ibburn::run {
namespace {

// drain.txt's hosts as Slurm drains them.
std::vector<slurm::Drain> slurm_drains(const std::vector<DrainEntry>& hosts) {
  std::vector<slurm::Drain> out;
  for (const auto& h : hosts) out.push_back({h.host, h.reason});
  return out;
}

void print_changes(const burn::BurnSummary& doc) {
  if (!doc.job || !doc.job->changes) return;
  const auto& c = *doc.job->changes;
  std::cerr << fmt::format("run: since run {}: {} new, {} recovered, {} still failing\n", c.previous_run,
                           c.new_findings.size(), c.recovered.size(), c.still_failing.size());
  for (const auto& n : c.new_findings) std::cerr << "  new: " << n << "\n";
}

}  // namespace

burn::BurnSummary job_summary(const JobState& job, burn::RunState state) {
  burn::BurnSummary doc;
  doc.transport = burn::to_string(job.o.burn.transport);
  doc.threshold = job.o.burn.threshold;
  doc.expect_gbps = job.o.burn.expect_gbps;
  doc.job = burn::JobRecord{burn::to_string(state), job.steps, std::nullopt, std::nullopt};
  return doc;
}

GuardedDrain write_lists(const JobState& job, burn::BurnSummary& doc) {
  std::vector<Finding>& all = doc.findings ? *doc.findings : doc.findings.emplace();
  auto drain =
      guard_drain(hosts_to_drain(all, job.host_of_hca, doc), job.o.max_drain, hosts_in_job(doc, job.host_of_hca));
  auto cables = cables_to_service(all, job.wiring ? &*job.wiring : nullptr, job.failed_before);
  for (auto* hosts : {&drain.drain, &drain.withheld}) order_by_cost(*hosts, job.costs);
  order_by_cost(cables, job.costs);
  write_file_atomic(job.dir + "/drain.txt", drain_text(drain));
  if (job.model) job.health.name_parts(cables, job.model->fabric);
  write_file_atomic(job.dir + "/cables.csv", cables_csv(cables));
  const auto limit_told = [](const Finding& f) { return f.kind == FindingKind::DrainLimit; };
  if (drain.finding && std::none_of(all.begin(), all.end(), limit_told)) {
    all.push_back(std::move(*drain.finding));
    sort_worst_first(all);
    doc.pass = false;
  }
  return drain;
}

void stop(const JobState& job, const Finding& cause) {
  burn::BurnSummary doc = job_summary(job, burn::RunState::Stopped);
  doc.pass = false;
  doc.findings = job.topo_findings;
  doc.findings->insert(doc.findings->end(), job.health.findings().begin(), job.health.findings().end());
  sort_worst_first(*doc.findings);
  write_file_atomic(job.dir + "/results.jsonl", "");
  write_lists(job, doc);
  burn::write_summary(job.dir + "/summary.json", doc);
  throw Error(kExitFindings,
              fmt::format("run: stopped before any traffic: {} (--burn-anyway burns regardless)", cause.message));
}

int publish(JobState& job, burn::BurnSummary& doc, int burn_code) {
  doc.job->outcome = burn::to_string(burn::run_state(doc));
  doc.job->steps = job.steps;
  const GuardedDrain drain = write_lists(job, doc);
  burn::write_summary(job.dir + "/summary.json", doc);
  report::ReportCommandOptions ro;
  ro.dir = job.dir;
  ro.html = job.dir + "/report.html";
  ro.prometheus = job.dir + "/ibburn.prom";
  ro.nights = job.o.history;
  if (job.model) ro.loaded = &job.model->fabric;  // the page's picture of the fabric the job ran on
  report::report_command(ro, std::cerr);
  // As the page says it: a job that did not finish is no pass (burn/summary.h, run_outcome).
  const burn::RunOutcome outcome = burn::run_outcome(doc);
  const bool finished = outcome != burn::RunOutcome::Incomplete;
  if (job.o.slurm.any())
    slurm::apply_slurm_actions(
        job.o.slurm, slurm_drains(drain.drain),
        finished ? passed_hosts(job_hosts(doc, job.host_of_hca), drain) : std::vector<std::string>{},
        job.dir + "/slurm.jsonl", std::cerr);
  print_changes(doc);
  if (job.price) price::print_price(std::cerr, *job.price, 3);
  if (job.ring_check)
    std::cerr << fmt::format(
        "run: ring step: the slowest flow measured {:.1f} Gb/s, the model gives {:.1f} (designed {:.1f})\n",
        job.ring_check->measured_gbps, job.ring_check->model_gbps, job.ring_check->designed_gbps);
  std::cerr << fmt::format("run: {}: {} finding(s), {} host(s) in drain.txt, outputs in {}\n", burn::headline(outcome),
                           doc.findings ? doc.findings->size() : 0, drain.drain.size(), job.dir);
  if (burn_code != kExitOk && burn_code != kExitFindings) return burn_code;
  return doc.pass ? kExitOk : kExitFindings;
}

}  // namespace ibburn::run
