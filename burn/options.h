#pragma once
// `ibburn burn`'s options, in parts named after who reads them, so a function takes the part
// it uses (the session its recording, a worker its control-channel bounds). BurnOptions is
// all of them at once, as the command line and `ibburn run` fill them in; the parts are its
// bases, so a field reads `o.duration` either way.
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/port_counters.h"
#include "burn/transport_kind.h"

namespace ibburn::burn {

class SessionObserver;  // burn/session_observer.h

// What every stage's traffic is: the coordinator, the workers, the transports and the fluid
// model read it; results.jsonl's header records it.
struct TrafficOptions {
  TransportKind transport = TransportKind::Tcp;
  std::chrono::milliseconds duration{60'000};
  int streams = 4;
  std::size_t message_size = 0;  // 0 = transport default
  bool verify = false;
  std::map<std::string, std::string> extra;  // transport knobs (qps, tx_depth, sockbuf...)
};

// Rank 0's session (burn/session.h): where it records, how it judges, how much it prints.
// It records the traffic's settings too, hence the base.
struct SessionOptions : TrafficOptions {
  std::string out_dir = "burn-results";
  double expect_gbps = 0;
  double threshold = 0.9;
  double max_retry_rate = kMaxRecoveredPerPacket;  // VerdictOptions::max_recovered_per_packet
  bool quiet = false;                              // no per-stage / per-second progress
};

// The control channel's bounds, on rank 0 and on every worker.
struct ControlOptions {
  std::chrono::milliseconds timeout{30'000};        // setup/connect/report bounds
  std::chrono::milliseconds stall_timeout{10'000};  // no progress this long = failed
  // The ranks of a host other than rank 0's reach rank 0 through a relay on the host's first
  // rank (burn/control_relay.h): rank 0 holds one socket per host. Off: one per rank.
  bool control_relay = true;
};

// Where each local rank runs: its endpoint, namespace and GPU (burn/rank_binding.h).
struct PlacementOptions {
  std::vector<std::string> bind;   // per local rank
  std::vector<std::string> netns;  // per local rank
  std::vector<int> gpus;           // per local rank
  std::string map_file;
};

// Host preflight (host/host_check.h) on one rank per host before stage 1: hosts with errors
// are refused (their ranks take no part), or only warned about with `force`.
struct HostCheckOptions {
  bool host_check = true;
  bool force = false;
  std::string host_sysfs_root = "/sys";  // another root stands in for /sys (tests, dumps)
  std::string host_expect;               // expectations file; empty = none
  bool host_memory = false;              // never the paired GPU's memory by default (verbs)
};

// Where rank 0's plan comes from.
struct PlanSourceOptions {
  std::string plan_file;  // empty = pattern
  std::string pattern = "pairs";
  // The observer's plan_for makes the plan once the ranks' endpoints are known (`ibburn
  // run`); neither plan_file nor pattern is read then.
  bool plan_from_observer = false;
};

struct BurnOptions : SessionOptions, ControlOptions, PlacementOptions, HostCheckOptions, PlanSourceOptions {
  // Not an aggregate: g++ 12 takes `BurnOptions{}`'s bases for uninitialised (-Wmaybe-uninitialized).
  BurnOptions() = default;
  // Made on rank 0 only, before stage 1 (it may read the fabric; a thrown Error stops the
  // run with its exit code): names causes in the summary, asks for probe stages, and sees
  // every stage start and end.
  std::function<std::shared_ptr<SessionObserver>()> observer;
};

}  // namespace ibburn::burn
