#pragma once
// A real Slurm for tests: munged, slurmctld and one slurmd per logical node, each slurmd in
// its own UTS namespace so a task's `hostname` is its node's name (scripts/slurm-cluster),
// all state in a private directory, stopped by PID in the destructor, also when a test fails.
// Where the daemons cannot start (packages missing, not root, no namespaces), unavailable()
// says why, for GTEST_SKIP.
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace ibburn::testing {

class SlurmCluster {
 public:
  // Starts the daemons and waits for every node to be idle (about 3 s).
  explicit SlurmCluster(std::vector<std::string> nodes = {"host001", "host002", "host003", "host004"});
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  // Empty when the cluster is up; else why it is not (the harness's message or logs).
  const std::string& unavailable() const { return unavailable_; }
  // slurm.conf, for SLURM_CONF in the clients' environment.
  std::string conf() const { return dir_ + "/slurm.conf"; }
  const std::vector<std::string>& nodes() const { return nodes_; }

  // Restarts slurmctld, which reads slurm.conf anew (what `scontrol reconfigure` leaves out,
  // such as TopologyPlugin), and waits for every node to be idle again (about 6 s). Throws
  // std::runtime_error with the harness's message when it does not come back.
  void restart_controller() const;
  // Runs a shell command with SLURM_CONF set (sinfo, scontrol, squeue...): its stdout.
  std::string shell(const std::string& command) const;
  // `sinfo -R`: "NODE|REASON" per drained node, sorted.
  std::vector<std::string> drained() const;
  // The daemons' logs, for a failure message.
  std::string logs() const;

 private:
  TempDir tmp_{"slurm"};
  std::string dir_;
  std::vector<std::string> nodes_;
  std::string unavailable_;
  bool started_ = false;
};

}  // namespace ibburn::testing
