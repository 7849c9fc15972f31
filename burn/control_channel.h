#pragma once
// The engine's control channel: newline-delimited JSON over TCP between rank 0 and every
// rank, one burn/control_protocol.h message per line. It carries the stage setup, the transports' address blobs,
// per-second samples and stage reports. It replaces MPI collectives after start-up because a rank that dies or hangs
// would block a collective forever, while a socket tells rank 0 at once (EOF) or lets it give
// up after a deadline, and the other ranks carry on.
#include <string>
#include <vector>

#include "burn/control_protocol.h"
#include "burn/socket_util.h"

namespace ibburn::burn {

class Channel {
 public:
  explicit Channel(Fd fd) : fd_(std::move(fd)) {}
  int fd() const { return fd_.get(); }
  bool closed() const { return closed_; }
  const std::string& close_reason() const { return close_reason_; }
  // Sends one message by the deadline; on failure the channel is closed (no throw).
  bool send(const Message& msg, SteadyTime deadline);
  // Reads whatever is available without blocking and returns the complete messages. A
  // malformed message closes the channel, the protocol error as the reason.
  std::vector<Message> read_available();
  // Waits up to ms for data, then read_available().
  std::vector<Message> poll(int ms);
  void close(const std::string& reason);

 private:
  Fd fd_;
  std::string buf_;
  bool closed_ = false;
  std::string close_reason_;
};

// Waits up to ms until one of the open channels (or extra_fd, when >= 0) has data.
void wait_any(const std::vector<Channel*>& channels, int ms, int extra_fd = -1);

// A rank's connection to rank 0: tries each candidate address (a few seconds each) until one
// answers. Throws TransportError listing what was tried.
Channel connect_control(const std::vector<std::string>& addresses, std::uint16_t port, SteadyTime deadline);

}  // namespace ibburn::burn
