#include "run/job_state.h"

#include <iostream>

#include <fmt/format.h>

#include "common/file_io.h"
#include "counters/snapshot_json.h"

namespace ibburn::run {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

JobState::JobState(const RunOptions& options)
    : o(options),
      dir(options.burn.out_dir),
      source(options.routes.routes.fabric),
      health(options.routes.routes.fabric.node_name_map, options.burn.out_dir),
      coverage(options.coverage) {}

void JobState::say(const std::string& line) const {
  if (!o.burn.quiet) std::cerr << "run: " << line << "\n";
}

void JobState::record(const std::string& name, Clock::time_point t0, const std::string& outcome) {
  steps.push_back({name, since(t0), outcome});
  say(fmt::format("{} ({:.1f} s): {}", name, steps.back().seconds, outcome));
}

void JobState::write_topo() const {
  write_file_atomic(dir + "/topo.json", findings_to_json(topo_findings).dump(2) + "\n");
}

std::vector<Finding> JobState::counter_evidence() const {
  std::vector<Finding> all = counter_findings;
  if (topology) all.insert(all.end(), topology->findings().begin(), topology->findings().end());
  return scope ? scope->within(std::move(all)) : all;
}

void JobState::write_counters() const {
  const std::string findings = "\"findings\":" + findings_to_json(counter_evidence())["findings"].dump();
  write_file_atomic(dir + "/counters.json", counters::snapshot_json_text(*last, findings));
}

std::vector<topo::PortEnd> JobState::endpoints_of_ranks() const {
  std::vector<topo::PortEnd> out;
  for (const auto& p : ports_by_rank)
    if (p) out.push_back(*p);
  return out;
}

void JobState::set_scope(const std::string& from) {
  scope.emplace(model->fabric, host_of_hca, hosts_of_ports(model->fabric, endpoints_of_ranks(), host_of_hca), from);
  if (!scope->partial()) return;
  say(fmt::format("allocation ({}): {} of the fabric's {} hosts; the others' cables are not judged", from,
                  scope->hosts().size(), scope->record()->hosts.size() + scope->record()->outside.size()));
  topo_findings = scope->within(std::move(topo_findings));
  if (wiring) write_topo();
}

void read_inputs(JobState& job) {
  if (!job.o.wiring.empty()) job.wiring = wiring::load_wiring_csv(job.o.wiring);
  job.rules.max_symbol_ber = job.o.max_symbol_ber;
  if (!job.o.thresholds.empty()) job.rules.counts = counters::Thresholds::load(job.o.thresholds);
  job.policy = audit::load_policy(job.o.audit);
}

}  // namespace ibburn::run
