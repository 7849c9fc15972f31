#pragma once
// The engine's control channel: newline-delimited JSON over stream sockets between rank 0 and
// every rank, one burn/control_protocol.h message per line. It carries the stage setup, the
// transports' address blobs, per-second samples and stage reports. It replaces MPI collectives
// after start-up because a rank that dies or hangs would block a collective forever, while a
// socket tells rank 0 at once (EOF) or lets it give up after a deadline, and the other ranks
// carry on.
//
// A rank's channel is either a direct connection to rank 0, or a route through its host's
// relay (burn/control_relay.h), so that rank 0 holds one socket per host instead of one per
// rank. On a relay's link every line carries the rank it is from or for:
//   "<rank> {json}"     one message of that rank
//   "<rank> !<reason>"  upwards: the relay lost that rank; downwards: rank 0 dropped it
// A direct link's lines have no prefix. Rank 0 tells the two apart line by line.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/control_protocol.h"
#include "burn/socket_util.h"

namespace ibburn::burn {

// One socket and its lines, filed by route: -1 for a direct link's lines, else the rank.
class Link {
 public:
  explicit Link(Fd fd) : fd_(std::move(fd)) {}
  int fd() const { return fd_.get(); }
  bool closed() const { return closed_; }
  const std::string& close_reason() const { return close_reason_; }
  void close(const std::string& reason);
  // Reads what the socket holds, if it may hold something (at first, and after wait_any found
  // it readable), and files the complete lines by route.
  void pump();
  void mark_readable() { readable_ = true; }
  // The lines that arrived for a route, oldest first, without their prefix.
  std::vector<std::string> take(int route);
  bool has_lines(int route) const;
  // The reason a relay gave for losing this route ("" when it did not).
  std::string route_lost(int route) const;
  // Every route's lines, taken at once (a relay forwards them all).
  std::map<int, std::vector<std::string>> take_all();
  // Routes whose first line arrived since the last call, in arrival order.
  std::vector<int> take_new_routes();
  // Sends one line (a '\n' is added), after the queued ones, by the deadline; on failure the
  // link is closed.
  bool send_line(const std::string& line, SteadyTime deadline);
  // Without blocking: queue a line, and write what the socket takes now (false: the link
  // broke and is closed). A relay forwards this way so no slow rank holds up the others.
  void queue_line(const std::string& line);
  bool flush();
  // Writes every queued line by the deadline; on failure the link is closed.
  bool flush_by(SteadyTime deadline);
  bool wants_write() const { return !out_.empty(); }

 private:
  Fd fd_;
  std::string in_, out_;
  bool readable_ = true;
  bool closed_ = false;
  std::string close_reason_;
  std::map<int, std::vector<std::string>> lines_;
  std::map<int, std::string> lost_;
  std::vector<int> new_routes_;
};

class Channel {
 public:
  // A direct connection.
  explicit Channel(Fd fd) : link_(std::make_shared<Link>(std::move(fd))) {}
  // One rank's route on a relay's link.
  Channel(std::shared_ptr<Link> link, int route) : link_(std::move(link)), route_(route) {}
  int fd() const { return link_->fd(); }
  const std::shared_ptr<Link>& link() const { return link_; }
  bool is_route(int route) const { return route_ == route; }
  bool closed() const;
  std::string close_reason() const;
  // Sends one message by the deadline; on failure the channel is closed (no throw).
  bool send(const Message& msg, SteadyTime deadline);
  // Queues one message on the link, for Link::flush_by: rank 0 writes a relay's ranks' set-up
  // messages in one go rather than one system call each.
  void queue(const Message& msg);
  // Reads whatever is available without blocking and returns the complete messages. A
  // malformed message closes the channel, the protocol error as the reason.
  std::vector<Message> read_available();
  // Lines already read from the socket wait for read_available().
  bool has_pending() const { return link_->has_lines(route_); }
  // Waits up to ms for data, then read_available().
  std::vector<Message> poll(int ms);
  // A direct channel closes its socket; a routed one tells the relay to drop the rank.
  void close(const std::string& reason);

 private:
  std::shared_ptr<Link> link_;
  int route_ = -1;
  bool closed_ = false;
  std::string close_reason_;
};

// Rank 0's wait on its links: an epoll set, so a wake-up costs what is ready, not
// what is open. A link whose socket closes leaves the set by itself.
class LinkPoller {
 public:
  LinkPoller();
  void add(Link* link);
  void add_fd(int fd);  // a listener: wait() reports it as nullptr
  void remove(Link* link);
  // Waits up to ms; returns the links that are readable, marked readable.
  std::vector<Link*> wait(int ms);

 private:
  Fd epoll_;
};

// A rank's (or a relay's) connection to rank 0: tries each candidate address (a few seconds
// each) until one answers. Throws TransportError listing what was tried.
Fd connect_control(const std::vector<std::string>& addresses, std::uint16_t port, SteadyTime deadline);

}  // namespace ibburn::burn
