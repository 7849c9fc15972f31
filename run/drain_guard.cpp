#include "run/drain_guard.h"

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "common/error.h"

namespace ibburn::run {

DrainLimit parse_drain_limit(const std::string& text) {
  const bool percent = !text.empty() && text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  double value = 0;
  size_t used = 0;
  try {
    value = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const bool whole = !percent && used == number.size() && value == std::floor(value);
  if (number.empty() || used != number.size() || !std::isfinite(value) || (percent && (value <= 0 || value > 100)) ||
      (!percent && (!whole || value < 1)))
    throw InputError("--max-drain", 0,
                     fmt::format("'{}' is not a count of hosts (1, 2, ...) or a share of the job's hosts (5%)", text));
  return {value, percent};
}

size_t max_hosts(const DrainLimit& limit, size_t job_hosts) {
  if (!limit.percent) return static_cast<size_t>(limit.value);
  return std::max<size_t>(1, static_cast<size_t>(std::floor(limit.value / 100.0 * static_cast<double>(job_hosts))));
}

std::set<std::string> job_hosts(const burn::BurnSummary& burn, const std::map<std::string, std::string>& host_of_hca) {
  std::set<std::string> hosts;
  for (const auto& e : burn.endpoints)
    if (e.host) hosts.insert(*e.host);
  if (hosts.empty())
    for (const auto& [hca, host] : host_of_hca) hosts.insert(host);
  return hosts;
}

size_t hosts_in_job(const burn::BurnSummary& burn, const std::map<std::string, std::string>& host_of_hca) {
  return job_hosts(burn, host_of_hca).size();
}

GuardedDrain guard_drain(std::vector<DrainEntry> hosts, const DrainLimit& limit, size_t job_hosts) {
  GuardedDrain out;
  const size_t most = max_hosts(limit, job_hosts);
  if (hosts.size() <= most) {
    out.drain = std::move(hosts);
    return out;
  }
  Finding f;
  f.kind = FindingKind::DrainLimit;
  f.severity = Severity::Error;
  f.message = fmt::format(
      "{} of the job's {} hosts would be drained, more than --max-drain allows ({}{}): the cause is wider than "
      "hosts (see the other findings: the fabric, a tier, a rail, a switch); nobody was drained, drain.txt lists "
      "them as comments",
      hosts.size(), job_hosts, most, limit.percent ? fmt::format(", {:g}%", limit.value) : "");
  nlohmann::json names = nlohmann::json::array();
  for (const auto& h : hosts) names.push_back(h.host);
  f.details = {{"would_drain", hosts.size()}, {"max_drain", most}, {"job_hosts", job_hosts}, {"hosts", names}};
  out.finding = std::move(f);
  out.withheld = std::move(hosts);
  return out;
}

std::vector<std::string> passed_hosts(const std::set<std::string>& job_hosts, const GuardedDrain& drain) {
  std::set<std::string> failed;
  for (const auto* list : {&drain.drain, &drain.withheld})
    for (const auto& h : *list) failed.insert(h.host);
  std::vector<std::string> out;
  for (const auto& h : job_hosts)
    if (!failed.count(h)) out.push_back(h);
  return out;
}

std::string drain_text(const GuardedDrain& d) {
  if (d.withheld.empty()) return drain_text(d.drain);
  std::string out = "# not drained: " + d.finding->message + "\n";
  for (const auto& h : d.withheld) {
    const std::string line = drain_text(std::vector<DrainEntry>{h});
    out += "# " + line;
  }
  return out;
}

}  // namespace ibburn::run
