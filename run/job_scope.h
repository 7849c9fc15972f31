#pragma once
// What one job tests (pure). A nightly job often holds only some of the fabric's hosts: a
// Slurm allocation, or the hosts of the ranks it has. It plans over the cables those hosts can
// load and judges those; the cables and switches it left unloaded are told once (one finding,
// a count and a list), and nothing is said of the hosts outside the job: not their cables'
// counters, not their topology, no drain.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "burn/summary.h"
#include "common/finding.h"
#include "routing/route_model.h"

namespace ibburn::run {

class JobScope {
 public:
  // `host_of_hca`: HCA node name -> its host; `job_hosts`: the hosts the job holds. Every other
  // host of the fabric is outside the job, and so are its HCAs' cables (both ends).
  JobScope(const topo::Fabric& fabric, const std::map<std::string, std::string>& host_of_hca,
           std::set<std::string> job_hosts, std::string source);

  bool partial() const { return !outside_.empty(); }
  const std::set<std::string>& hosts() const { return hosts_; }
  // summary.json's job.allocation; nullopt when the job held every host.
  std::optional<burn::JobAllocation> record() const;

  // False for a finding whose every port is on an outside host's HCA or faces one across its
  // cable. A finding with no ports (the fabric's: no SM, a split) is always the job's.
  bool about_job(const Finding& f) const;
  std::vector<Finding> within(std::vector<Finding> findings) const;

  // One `untested` finding for a partial job: the cables no stage loaded in either direction
  // (`expected_total`: octets per cable direction, routing::EdgeId order) and the switches none
  // of whose cables was loaded. nullopt when the job held every host.
  std::optional<Finding> untested(const routing::RouteModel& model, const std::vector<double>& expected_total) const;
  // The cable directions of untested cables (both directions of each), for unused_directions
  // to leave out: they are told once, here.
  std::set<routing::EdgeId> untested_edges(const routing::RouteModel& model,
                                           const std::vector<double>& expected_total) const;

 private:
  std::set<std::string> hosts_, outside_;
  std::set<std::string> outside_nodes_;                  // the outside hosts' HCAs
  std::set<std::pair<std::string, int>> outside_ports_;  // the switch ports their cables reach
  std::string source_;
};

// The hosts of the HCA ports a job drives (by `host_of_hca`; ports of other nodes are none).
std::set<std::string> hosts_of_ports(const topo::Fabric& fabric, const std::vector<topo::PortEnd>& ports,
                                     const std::map<std::string, std::string>& host_of_hca);

}  // namespace ibburn::run
