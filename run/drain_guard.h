#pragma once
// The drain guard (pure): one run never takes more than `--max-drain` hosts out of service. A
// cause that would drain more (a fabric-wide speed, a rail, a switch) is wider than hosts, and
// draining the cluster for it stops the site's work without fixing anything. Past the limit
// nothing is drained, one `drain_limit` finding says so with the count, and drain.txt lists
// the hosts it would have drained as comments.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "burn/summary.h"
#include "common/finding.h"
#include "run/service_actions.h"

namespace ibburn::run {

// `--max-drain`: a count of hosts ("12") or a share of the job's hosts ("5%").
struct DrainLimit {
  double value = 5;
  bool percent = true;
};

// "N" (N >= 1) or "P%" (0 < P <= 100); anything else throws InputError("--max-drain").
DrainLimit parse_drain_limit(const std::string& text);

// The most hosts one run drains: the count, or the share of `job_hosts` rounded down, at least 1.
size_t max_hosts(const DrainLimit& limit, size_t job_hosts);

// The job's hosts: those the burn's endpoints ran on, else every host with an HCA in the
// fabric (`host_of_hca`'s hosts: the sim transport, where every HCA port is a rank).
std::set<std::string> job_hosts(const burn::BurnSummary& burn, const std::map<std::string, std::string>& host_of_hca);
size_t hosts_in_job(const burn::BurnSummary& burn, const std::map<std::string, std::string>& host_of_hca);

struct GuardedDrain {
  std::vector<DrainEntry> drain;     // what drain.txt and --slurm-drain act on
  std::vector<DrainEntry> withheld;  // past the limit: every host that would have been drained
  std::optional<Finding> finding;    // `drain_limit` (error), when hosts were withheld
};

GuardedDrain guard_drain(std::vector<DrainEntry> hosts, const DrainLimit& limit, size_t job_hosts);

// The job's hosts that passed: not drained, and not withheld by the guard (withheld hosts
// failed too; the guard only keeps them in service).
std::vector<std::string> passed_hosts(const std::set<std::string>& job_hosts, const GuardedDrain& drain);

// drain.txt: "HOST<TAB>REASON" per host to drain; past the limit, a '#' line saying why, then
// "# HOST<TAB>REASON" per withheld host (so the file holds no host line to act on).
std::string drain_text(const GuardedDrain& d);

}  // namespace ibburn::run
