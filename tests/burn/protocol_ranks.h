#pragma once
// Many ranks in one thread that speak the control protocol with no transport behind them:
// each answers Setup with a placeholder address per flow and Connect with Connected, sends a
// Sample every second of a stage at a fixed rate, and its Report at the end (or at Stop).
// The control-plane benchmark puts 32,768 ranks in a few processes this way, where a thread
// and a transport per rank would not fit on one machine.
#include <atomic>
#include <string>
#include <vector>

#include "burn/control_channel.h"

namespace ibburn::testing {

struct ProtocolRank {
  int rank = 0;
  std::string host;
  burn::Channel channel;
};

// What the ranks did, where a benchmark can read it (shared memory across processes).
struct ProtocolCounters {
  std::atomic<long long> first_start_ns{0};  // steady clock: the first Start any rank got
  std::atomic<long long> samples{0};         // Sample messages sent
};

// Sends each rank's Hello (token, host, an endpoint at gbps), then answers rank 0 until every
// rank has its Done or lost its channel. counters may be null. The rank `lost_rank` (when it is
// one of these) dies two seconds into its first stage: it closes its channel.
void run_protocol_ranks(std::vector<ProtocolRank>& ranks, const std::string& token, double gbps,
                        ProtocolCounters* counters, int lost_rank = -1);

}  // namespace ibburn::testing
