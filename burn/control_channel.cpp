#include "burn/control_channel.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <thread>

#include "burn/transport.h"

namespace ibburn::burn {

bool Channel::send(const Message& msg, SteadyTime deadline) {
  if (closed_) return false;
  nlohmann::json j;
  to_json(j, msg);
  std::string line = j.dump() + "\n";
  try {
    send_all(fd_.get(), line.data(), line.size(), deadline);
    return true;
  } catch (const TransportError& e) {
    close(e.what());
    return false;
  }
}

void Channel::close(const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  close_reason_ = reason;
  fd_.reset();
}

std::vector<Message> Channel::read_available() {
  std::vector<Message> out;
  if (closed_) return out;
  char tmp[65536];
  while (true) {
    ssize_t n = ::recv(fd_.get(), tmp, sizeof tmp, MSG_DONTWAIT);
    if (n > 0) {
      buf_.append(tmp, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      close("connection closed");
      break;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) close(errno_text(errno));
    break;
  }
  std::size_t start = 0, nl;
  while ((nl = buf_.find('\n', start)) != std::string::npos) {
    try {
      out.push_back(message_from_json(
          nlohmann::json::parse(buf_.begin() + static_cast<long>(start), buf_.begin() + static_cast<long>(nl))));
    } catch (const nlohmann::json::exception&) {
      close("protocol error: malformed control message");
      return out;
    } catch (const ProtocolError& e) {
      close(std::string("protocol error: ") + e.what());
      return out;
    }
    start = nl + 1;
  }
  buf_.erase(0, start);
  return out;
}

std::vector<Message> Channel::poll(int ms) {
  wait_any({this}, ms);
  return read_available();
}

void wait_any(const std::vector<Channel*>& channels, int ms, int extra_fd) {
  std::vector<pollfd> fds;
  for (Channel* c : channels)
    if (c && !c->closed()) fds.push_back({c->fd(), POLLIN, 0});
  if (extra_fd >= 0) fds.push_back({extra_fd, POLLIN, 0});
  ::poll(fds.data(), fds.size(), ms);
}

Channel connect_control(const std::vector<std::string>& addresses, std::uint16_t port, SteadyTime deadline) {
  std::string tried;
  while (true) {
    for (const auto& a : addresses) {
      auto each = std::min(deadline, Clock::now() + std::chrono::seconds(3));
      try {
        return Channel(connect_tcp(a, port, "", each));
      } catch (const TransportError& e) {
        if (tried.find(a + ":") == std::string::npos) tried += (tried.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    if (Clock::now() >= deadline) throw TransportError("cannot reach rank 0's control channel: " + tried);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace ibburn::burn
