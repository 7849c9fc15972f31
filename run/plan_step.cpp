#include "run/plan_step.h"

#include <fmt/format.h>

#include "burn/ring_pattern.h"
#include "burn/stage_plan.h"
#include "common/error.h"
#include "localization/endpoint_names.h"
#include "plan/plan_output.h"
#include "planner/planner.h"
#include "run/counter_evidence.h"

namespace ibburn::run {
namespace {

// `eps`: the ranks' endpoints (the sim's are made from the fabric), for the ring pattern.
// Without a fabric (job.no_subnet) the ranks are the endpoints and the pattern is the burn's own.
burn::Plan plan_over(JobState& job, const std::vector<topo::PortEnd>& endpoints,
                     std::vector<burn::EndpointInfo> eps = {}) {
  const int ranks = static_cast<int>(job.model ? endpoints.size() : eps.size());
  if (!job.o.burn.plan_file.empty()) return burn::load_plan(job.o.burn.plan_file, ranks);
  if (job.o.burn.pattern == burn::kRingPattern) {
    if (eps.empty())
      for (const auto& p : endpoints)
        eps.push_back(fluid::simulated_endpoint(job.model->fabric, *job.model->cables, p));
    job.ring_hosts = burn::ring_hosts(eps);
    job.say("plan: the ring pattern: each rail's ring step over " + std::to_string(job.ring_hosts.size()) + " hosts");
    return burn::make_ring(eps, job.o.burn.streams);
  }
  if (!job.model) return burn::make_pattern(job.o.burn.pattern, ranks, job.o.burn.streams);
  const auto& model = *job.model;
  planner::PlanResult r = planner::make_plan(model.fabric, *model.cables, *model.router, endpoints, {});
  for (const auto& n : r.notes) job.say("plan: " + n);
  return plan::to_burn_plan(r, "ibburn run");
}

}  // namespace

std::string SimPlanStep::run(JobState& job) {
  run_.routes = job.model;
  run_.live_fabric = job.source.is_live();
  run_.endpoints = job.endpoints.ports;
  job.ports_by_rank.assign(run_.endpoints.begin(), run_.endpoints.end());
  job.set_scope(job.o.allocation.empty() ? "ranks" : job.allocation_source);
  run_.plan = plan_over(job, run_.endpoints);
  for (const auto& d : job.o.routes.degrade)
    routing::parse_degrade(d, job.model->fabric, *job.model->cables, run_.degrade);
  return fmt::format("{} stage(s) for {} ranks", run_.plan.stages.size(), run_.endpoints.size());
}

std::string RankPlanStep::run(JobState& job) {
  if (!job.model) {
    for (const auto& e : eps_)
      if (auto port = localization::device_port(e)) job.host_of_hca.emplace(port->node, e.host);
    plan = plan_over(job, {}, eps_);
    return fmt::format("{} stage(s) for {} ranks, the {} pattern (no fabric to plan over)", plan.stages.size(),
                       eps_.size(), job.o.burn.plan_file.empty() ? job.o.burn.pattern : job.o.burn.plan_file);
  }
  std::vector<uint64_t> guid_by_rank;
  for (size_t r = 0; r < eps_.size(); ++r)
    guid_by_rank.push_back(r < job.given_guids.size() && job.given_guids[r] ? job.given_guids[r] : eps_[r].port_guid);
  std::vector<int> missing;
  job.ports_by_rank = rank_ports(job.model->fabric, guid_by_rank, &missing);
  job.set_scope("ranks");
  if (!job.o.burn.plan_file.empty()) {
    plan = burn::load_plan(job.o.burn.plan_file, static_cast<int>(eps_.size()));
    return "from " + job.o.burn.plan_file;
  }
  if (!missing.empty())
    throw InputError(job.o.routes.endpoints.empty() ? "endpoints" : job.o.routes.endpoints, 0,
                     fmt::format("rank {} has no HCA port of the fabric (its transport reports none: give "
                                 "--endpoints RANK PORT_GUID, or --plan)",
                                 missing.front()));
  plan = plan_over(job, job.endpoints_of_ranks(), eps_);
  return fmt::format("{} stage(s) for {} ranks", plan.stages.size(), eps_.size());
}

}  // namespace ibburn::run
