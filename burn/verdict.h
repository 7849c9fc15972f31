#pragma once
// Verdicts: is each measured direction, flow and endpoint good enough? Pure logic on the
// merged stage results, so it is unit-tested with plain data.
//
// Expected rate of a direction from A to B in a stage: A's rate shared by the directions A
// sends in that stage, and B's rate shared by those B receives; the smaller of the two.
// An endpoint's rate is --expect-gbps when given, else its port's rate (0 = unknown, and
// directions with no known rate are "unjudged"). A direction passes at >= threshold x expected.
//
// Endpoints: a lost rank fails; an endpoint whose every judged direction is bad is "slow"
// (or "failed" when one of them failed); one with some bad directions that a bad peer does not
// explain is "suspect"; otherwise it passes. So with one-to-one rounds a single slow host
// stands out, while with `pairs` both ends of a slow flow are named (nothing tells them apart).
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "burn/results.h"
#include "burn/port_counters.h"
#include "burn/summary.h"
#include "common/finding.h"

namespace ibburn::burn {

struct VerdictOptions {
  double threshold = 0.9;  // fraction of the expected rate a direction must reach
  double expect_gbps = 0;  // per endpoint; 0 = each port's own rate
  // A port's own recovered-packet counters per packet above this are a finding (port_counters.h)
  double max_recovered_per_packet = kMaxRecoveredPerPacket;
};

struct EndpointVerdict {
  int rank = 0;
  Verdict verdict = Verdict::Unjudged;
  std::string reason;
  int directions = 0;       // judged directions it took part in
  int bad = 0;              // of those, slow or failed
  double min_tx_gbps = -1;  // -1 = never sent
  double min_rx_gbps = -1;
};

std::vector<DirectionVerdict> judge_stage(const StageResult& stage, const std::vector<EndpointInfo>& endpoints,
                                          const VerdictOptions& o);
// `endpoints` (index = rank) names a suspect endpoint's healthy peers in its reason ("stage 1 to
// node0005 mlx5_0:1 slow"); ranks without one are "rank N".
// `port_down`: ranks whose port's own counters say its link went down during the burn
// (link_downed rose): their bad directions are theirs, and a peer whose bad directions all go
// to such ranks passes (two hosts, one NIC down: one host to drain, not both).
std::vector<EndpointVerdict> judge_endpoints(const std::vector<DirectionVerdict>& directions, int ranks,
                                             const LostRanks& lost, const std::vector<EndpointInfo>& endpoints = {},
                                             const std::set<int>& port_down = {});

struct SummaryInput {
  std::string transport;
  int stages_planned = 0;
  bool complete = false;     // every stage ran to its end
  bool interrupted = false;  // Ctrl-C / SIGTERM (the job may have been aborted by MPI)
  std::vector<StageResult> stages;
  std::vector<EndpointInfo> endpoints;  // index = rank
  LostRanks lost;
  // By rank: the rise of its port's kernel counters over the stages it reported (ranks sharing
  // a port show the same port); absent for a transport without them.
  std::map<int, PortCounterValues> port_counters;
  VerdictOptions options;
};

// summary.json (doc) and the findings it implies. doc.pass: no finding.
struct Summary {
  BurnSummary doc;
  std::vector<Finding> findings;  // slow/failed flows and endpoints, lost ranks
};

Summary make_summary(const SummaryInput& in);

// A finding's port as the burn writes it, before a fabric or the ranks' own ports name it
// (localization/endpoint_names.h): "rank N HOST:ENDPOINT", port 0; and back to the rank
// (nullopt for any other port).
PortRef endpoint_ref(const std::vector<EndpointInfo>& eps, int rank);
std::optional<int> rank_of_ref(const PortRef& port);

}  // namespace ibburn::burn
