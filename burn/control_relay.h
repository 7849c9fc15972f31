#pragma once
// A host's control relay: the host's first rank forwards its ranks' control channels to rank 0
// over one connection, so rank 0 holds one socket per host, not one per rank (32,768 ranks
// would need more file descriptors than most systems give a process). The lines on that
// connection carry the rank they are from or for (burn/control_channel.h). The host's ranks
// reach the relay through a Unix socket path, which every network namespace of the host can
// reach. The relay never reads the messages beyond a Hello's rank: the protocol between the
// ranks and rank 0 is unchanged, and so is losing a rank (its socket closes; the relay says so).
#include <atomic>
#include <chrono>
#include <string>

#include "burn/socket_util.h"

namespace ibburn::burn {

class Relay {
 public:
  // Listens at path for the host's ranks (a stale socket there is replaced). Throws
  // TransportError.
  explicit Relay(std::string path);
  ~Relay();
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;
  const std::string& path() const { return path_; }

  // Forwards between the host's ranks and rank 0 (the connected `upstream`) until rank 0
  // closes it or the deadline set by finish() passes. Returns why it stopped. The ranks'
  // connections are closed then, and the listener too, so a rank that comes later is refused.
  std::string run(Fd upstream);
  // Thread-safe: this process is done; forward what still comes for at most `grace` (the
  // host's other ranks may still be waiting for their Done).
  void finish(std::chrono::milliseconds grace);
  // Instead of run(), when rank 0 cannot be reached: closes the listener, so the ranks that
  // connected or come later see their channel close at once rather than wait.
  void refuse();

 private:
  std::string path_;
  Fd listener_;
  std::atomic<long long> finish_by_ns_{0};  // steady clock; 0 = not finishing
};

// The path of the relay of world rank `rank` of job `job` (unique per host and run): under
// $TMPDIR when short enough for a socket path, else /tmp.
std::string relay_path(const std::string& job, int rank);

}  // namespace ibburn::burn
