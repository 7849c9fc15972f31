#pragma once
// `ibburn burn`: the MPI-launched engine. MPI starts the ranks, tells each its local rank
// and broadcasts where rank 0's control channel listens; from then on everything goes over
// that channel (burn/control_channel.h) so a dead or hung rank costs only its own flows.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/explainer.h"
#include "burn/transport_kind.h"

namespace ibburn::burn {

struct BurnOptions {
  std::string plan_file;  // empty = pattern
  std::string pattern = "pairs";
  std::chrono::milliseconds duration{60'000};
  TransportKind transport = TransportKind::Tcp;
  std::string out_dir = "burn-results";
  double expect_gbps = 0;
  double threshold = 0.9;
  bool verify = false;
  int streams = 4;
  std::size_t message_size = 0;    // 0 = transport default
  std::vector<std::string> bind;   // per local rank
  std::vector<std::string> netns;  // per local rank
  std::vector<int> gpus;           // per local rank
  std::string map_file;
  std::map<std::string, std::string> extra;         // transport knobs (qps, tx_depth, sockbuf...)
  std::chrono::milliseconds timeout{30'000};        // setup/connect/report bounds
  std::chrono::milliseconds stall_timeout{10'000};  // no progress this long = failed
  bool quiet = false;                               // no per-second progress
  // The ranks of a host other than rank 0's reach rank 0 through a relay on the host's first
  // rank (burn/control_relay.h): rank 0 holds one socket per host. Off: one per rank.
  bool control_relay = true;
  // Host preflight (host/host_check.h) on one rank per host before stage 1: hosts with
  // errors are refused (their ranks take no part), or only warned about with `force`.
  bool host_check = true;
  bool force = false;
  std::string host_sysfs_root = "/sys";  // another root stands in for /sys (tests, dumps)
  std::string host_expect;               // expectations file; empty = none
  bool host_memory = false;              // never the paired GPU's memory by default (verbs)
  // Made on rank 0 only, before stage 1 (it may read the fabric; a thrown Error stops the
  // run with its exit code): names causes in the summary, asks for probe stages.
  std::function<std::shared_ptr<Explainer>()> explainer;
  // The explainer's plan_for makes the plan once the ranks' endpoints are known (`ibburn
  // run`); neither plan_file nor pattern is read then.
  bool plan_from_explainer = false;
};

// Runs this rank's part of the burn (MPI_Init .. MPI_Finalize). Returns the exit code:
// rank 0: 0 all passed, 1 findings, 130 interrupted; other ranks 0 (or 3/130). Throws Error
// for bad input on rank 0; other ranks return the code silently.
int run_burn(const BurnOptions& options);

}  // namespace ibburn::burn
