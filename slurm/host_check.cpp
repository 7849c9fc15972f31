#include "slurm/host_check.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "common/file_io.h"
#include "common/finding.h"
#include "slurm/scontrol.h"

namespace ibburn::slurm {
namespace {

// slurmd gives its prolog and health check the node's own name; elsewhere the host name.
std::string local_node() {
  if (const char* n = std::getenv("SLURMD_NODENAME"); n && *n) return n;
  char name[HOST_NAME_MAX + 1] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace

std::optional<Drain> host_check_drain(const host::HostReport& report, const std::string& host) {
  std::vector<Finding> errors;
  for (const auto& f : report.findings)
    if (f.severity == Severity::Error) errors.push_back(f);
  if (errors.empty()) return std::nullopt;
  sort_worst_first(errors);
  std::string reason = "host check: " + errors.front().message;
  if (errors.size() > 1) reason += fmt::format(" (and {} more)", errors.size() - 1);
  return Drain{host, reason};
}

int run_host_check_slurm(const host::CheckOptions& options, const std::string& json_out,
                         const HostCheckSlurmOptions& slurm, std::ostream& out) {
  const host::HostReport report = host::check_host(options);
  host::print_report(out, report);
  if (!json_out.empty()) write_file_atomic(json_out, host::to_json(report).dump(2) + "\n");
  const auto drain = host_check_drain(report, slurm.node.empty() ? local_node() : slurm.node);
  if (!drain) return exit_code_for(report.findings);
  SlurmOptions o;
  o.drain = true;
  o.node_map = slurm.node_map;
  apply_slurm_actions(o, {*drain}, {}, slurm.log, std::cerr);
  return exit_code_for(report.findings);
}

}  // namespace ibburn::slurm
