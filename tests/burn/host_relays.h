#pragma once
// Each host's control relay on a thread of this process, as the host's first rank runs it
// (burn/control_relay.h), for hosts [first_host, last_host) of per_host ranks. Host 0 is rank
// 0's: its ranks connect directly, as in a real job; so does every rank when per_host <= 1.
// Tests and the control-plane benchmark.
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "burn/control_channel.h"
#include "burn/control_relay.h"

namespace ibburn::testing {

class HostRelays {
 public:
  HostRelays(int per_host, int first_host, int last_host, std::uint16_t port, burn::SteadyTime deadline);
  ~HostRelays();  // each relay forwards what is still coming for a second, then its thread ends
  HostRelays(const HostRelays&) = delete;
  HostRelays& operator=(const HostRelays&) = delete;
  // The rank's channel to rank 0 on 127.0.0.1:port: through its host's relay, or directly.
  burn::Channel connect(int rank, burn::SteadyTime deadline) const;

 private:
  int per_host_, first_host_;
  std::uint16_t port_;
  std::vector<std::unique_ptr<burn::Relay>> relays_;  // by host - first_host; null: direct
  std::vector<std::thread> threads_;
};

}  // namespace ibburn::testing
