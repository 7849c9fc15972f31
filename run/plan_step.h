#pragma once
// The job's plan: the ranks' ports (job.ports_by_rank), the job's hosts (job.scope) and the
// burn's stages over the live routes (--plan's file, --pattern ring, else the planner's).
#include <optional>
#include <vector>

#include "burn/engine.h"
#include "fluid/simulated_burn.h"
#include "run/job_step.h"

namespace ibburn::run {

// The sim transport: every endpoint is a rank; fills `run`'s routes, ranks, plan and
// --degrade (its counters: stage_sweep.h's count_simulated_traffic).
class SimPlanStep : public Step {
 public:
  explicit SimPlanStep(fluid::SimulatedBurn& run) : run_(run) {}
  std::string name() const override { return "plan"; }
  std::string run(JobState& job) override;

 private:
  fluid::SimulatedBurn& run_;
};

// MPI: the ranks' endpoints as they reported them (a rank --endpoints names keeps that port).
// Throws InputError for a rank with no HCA port of the fabric.
class RankPlanStep : public Step {
 public:
  explicit RankPlanStep(const std::vector<burn::EndpointInfo>& eps) : eps_(eps) {}
  std::string name() const override { return "plan"; }
  std::string run(JobState& job) override;
  burn::Plan plan;

 private:
  const std::vector<burn::EndpointInfo>& eps_;
};

}  // namespace ibburn::run
