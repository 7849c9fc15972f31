#pragma once
// The job's steps over the fabric before any traffic, in the order the job runs them.
#include <optional>

#include "host/inventory.h"
#include "run/job_step.h"

namespace ibburn::run {

// Why the job has no subnet to discover (pure): `--fabric none`, or, for an MPI transport over
// the live fabric, this host's RDMA ports (`hcas`, -C's alone when given) all Ethernet (RoCE).
// nullopt: discover it (a TCP burn over Ethernet without RDMA devices says --fabric none).
std::optional<std::string> without_subnet(const topo::FabricSource& source, burn::TransportKind transport,
                                          const std::vector<host::Hca>& hcas);

// Loads the fabric (fills job.fabric) and, with --wiring, checks it against the list
// (job.topo_findings, topo.json); the cables' scopes for systemic causes (job.scopes) from
// the wiring list, else from the fabric. Without a subnet (without_subnet on this host's
// /sys: job.no_subnet) this and every step over the fabric after it are skipped, saying why.
class TopoStep : public Step {
 public:
  std::string name() const override { return "topo"; }
  std::string run(JobState& job) override;

 private:
  static std::string load(JobState& job);
};

// The topo finding that stops the job before any traffic (a split, an island without an SM);
// nullptr when there is none or --burn-anyway burns regardless.
const Finding* stopping_cause(const JobState& job);

// The fabric's partitions, keys, SMs and MTU against the site's policy (job.policy) over
// live SMPs; its findings join the topo check's (job.topo_findings, topo.json).
class AuditStep : public Step {
 public:
  std::string name() const override { return "audit"; }
  std::string run(JobState& job) override;
};

// The fabric's routes (job.model takes job.fabric), each HCA's host (job.host_of_hca), and the
// pricing's view of them (job.price_fabric) with --job-sizes and --max-slowdown checked. A
// simulated burn over files whose links carry no rate (ibsim's net-examples) gives them the
// 4X SDR ibsim trains them at, saying how many.
class RoutesStep : public Step {
 public:
  std::string name() const override { return "routes"; }
  std::string run(JobState& job) override;
};

// The forwarding tables the routes step read (job.model->lfts) judged: credit loops per VL,
// unreachable LIDs, turns, balance (route_check/). Its findings join the topo check's
// (job.topo_findings, topo.json); a credit loop stops the job (stopping_cause). Skipped under
// adaptive routing from files, which has no tables.
class RouteCheckStep : public Step {
 public:
  std::string name() const override { return "route check"; }
  std::string run(JobState& job) override;
};

// The ranks' candidate ports: --endpoints or every HCA port (job.endpoints), cut to the
// --allocation's hosts; the localisation over the routes (job.localizer).
class EndpointsStep : public Step {
 public:
  std::string name() const override { return "endpoints"; }
  std::string run(JobState& job) override;
};

// Every port's counters before traffic (job.last, counters-before.json, counters.json) and
// the watches the stages compare with (job.sweeper, job.topology, job.sm). A fabric from
// files has no counters: skipped.
class CountersStep : public Step {
 public:
  std::string name() const override { return "counters"; }
  std::string run(JobState& job) override;
};

// An ibdiagnet capture's switch and cable health ("health before", "health after").
class HealthStep : public Step {
 public:
  HealthStep(std::string input, std::string when) : input_(std::move(input)), when_(std::move(when)) {}
  std::string name() const override { return "health " + when_; }
  std::string run(JobState& job) override { return job.health.judge(input_, when_); }

 private:
  std::string input_, when_;
};

}  // namespace ibburn::run
