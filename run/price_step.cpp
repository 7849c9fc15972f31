#include "run/price_step.h"

#include <algorithm>

#include <fmt/format.h>

#include "price/price_command.h"
#include "report/history.h"

namespace ibburn::run {
namespace {

// --pattern ring: the slowest flow of its step beside the model's over the same hosts.
price::RingCheck ring_check(const JobState& job, const std::vector<price::Subject>& subjects,
                            const burn::BurnSummary& doc) {
  std::vector<price::HostId> order;
  for (const auto& h : job.ring_hosts)
    if (auto id = job.price_fabric->find_host(h)) order.push_back(*id);
  double measured = -1;
  for (const auto& f : doc.flows)
    if (f.stage == 1) measured = measured < 0 ? f.gbps : std::min(measured, f.gbps);
  return price::ring_check(*job.price_fabric, subjects, order, std::max(0.0, measured));
}

Finding no_go(const JobState& job) {
  const auto& price = *job.price;
  Finding f;
  f.kind = FindingKind::SlowdownOverLimit;
  f.severity = Severity::Error;
  f.message = fmt::format("no-go: the fabric as measured is past --max-slowdown {}: {}", job.o.max_slowdown,
                          price.no_go.front());
  for (const auto& p : price.findings)
    if (p.defect() && p.worst() && p.slowdown() > 1.0005 && f.ports.size() < 6) {
      f.message += (f.ports.empty() ? "; costliest: " : ", ") + p.what.message;
      f.ports.insert(f.ports.end(), p.what.ports.begin(),
                     p.what.ports.begin() + std::min<size_t>(2, p.what.ports.size()));
    }
  f.details = {{"no_go", price.no_go}};
  return f;
}

}  // namespace

void price_findings(JobState& job, burn::BurnSummary& doc, std::vector<Finding>& all) {
  const auto t0 = Clock::now();
  std::optional<price::RingCheck> ring;
  try {
    const auto subjects =
        price::subjects_of(all, *job.price_fabric, price::measured_rates(*job.price_fabric, doc, job.ports_by_rank));
    job.price = price::price_subjects(*job.price_fabric, subjects, job.price_options);
    if (!job.ring_hosts.empty()) ring = ring_check(job, subjects, doc);
  } catch (const routing::RoutingError& e) {
    job.price_step = burn::JobStep{"price", since(t0), std::string("skipped: ") + e.what()};
    return;
  }
  doc.price = price::to_json(*job.price);
  if (ring) (*doc.price)["ring_check"] = price::to_json(*ring);
  job.ring_check = ring;
  job.costs = {};
  size_t priced = 0;
  for (const auto& p : job.price->findings) {
    if (!p.defect() || !p.worst()) continue;
    ++priced;
    const std::string text = price::cost_text(*p.worst());
    const auto& ports = p.what.ports;
    if (ports.size() >= 2)
      job.costs.add(job.costs.by_cable, report::cable_name(ports[0], ports[1]), p.slowdown(), text);
    for (const auto& port : ports)
      if (auto it = job.host_of_hca.find(port.node); it != job.host_of_hca.end())
        job.costs.add(job.costs.by_host, it->second, p.slowdown(), text);
  }
  if (!job.price->go()) all.push_back(no_go(job));
  const auto& price = *job.price;
  job.price_step = burn::JobStep{
      "price", since(t0),
      fmt::format("{}: {} of {} finding(s) priced", price.max_slowdown ? (price.go() ? "go" : "no-go") : "ok", priced,
                  price.findings.size())};
}

}  // namespace ibburn::run
