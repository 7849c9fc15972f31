#include "burn/control_channel.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <thread>

#include "burn/transport.h"

namespace ibburn::burn {

void Link::close(const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  close_reason_ = reason;
  fd_.reset();
}

void Link::pump() {
  if (closed_ || !readable_) return;
  char tmp[65536];
  while (true) {
    ssize_t n = ::recv(fd_.get(), tmp, sizeof tmp, MSG_DONTWAIT);
    if (n > 0) {
      in_.append(tmp, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    readable_ = false;
    if (n == 0)
      close("connection closed");
    else if (errno != EAGAIN && errno != EWOULDBLOCK)
      close(errno_text(errno));
    break;
  }
  std::size_t start = 0, nl;
  while ((nl = in_.find('\n', start)) != std::string::npos) {
    std::string_view line(in_.data() + start, nl - start);
    start = nl + 1;
    int route = -1;
    if (!line.empty() && line.front() != '{') {  // "<rank> ..." from or for a relay
      auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), route);
      if (ec != std::errc() || route < 0 || end == line.data() + line.size() || *end != ' ') {
        close("protocol error: malformed line prefix");
        return;
      }
      line.remove_prefix(static_cast<std::size_t>(end - line.data()) + 1);
    }
    if (!lines_.count(route) && !lost_.count(route)) new_routes_.push_back(route);
    if (route >= 0 && !line.empty() && line.front() == '!')
      lost_[route] = std::string(line.substr(1));
    else
      lines_[route].emplace_back(line);
  }
  in_.erase(0, start);
}

std::vector<std::string> Link::take(int route) {
  auto it = lines_.find(route);
  if (it == lines_.end()) return {};
  return std::exchange(it->second, {});
}

std::map<int, std::vector<std::string>> Link::take_all() {
  std::map<int, std::vector<std::string>> out;
  for (auto& [route, lines] : lines_)
    if (!lines.empty()) out[route] = std::exchange(lines, {});
  return out;
}

bool Link::has_lines(int route) const {
  auto it = lines_.find(route);
  return it != lines_.end() && !it->second.empty();
}

std::string Link::route_lost(int route) const {
  auto it = lost_.find(route);
  return it == lost_.end() ? "" : it->second;
}

std::vector<int> Link::take_new_routes() { return std::exchange(new_routes_, {}); }

bool Link::send_line(const std::string& line, SteadyTime deadline) {
  queue_line(line);  // behind what is queued: lines never interleave
  return flush_by(deadline);
}

void Link::queue_line(const std::string& line) {
  out_ += line;
  out_ += '\n';
}

bool Link::flush() {
  if (closed_) return false;
  std::size_t sent = 0;
  while (sent < out_.size()) {
    ssize_t n = ::send(fd_.get(), out_.data() + sent, out_.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    close(n < 0 ? errno_text(errno) : "connection closed");
    return false;
  }
  out_.erase(0, sent);
  return true;
}

bool Link::flush_by(SteadyTime deadline) {
  if (closed_) return false;
  if (out_.empty()) return true;
  try {
    send_all(fd_.get(), out_.data(), out_.size(), deadline);
    out_.clear();
    return true;
  } catch (const TransportError& e) {
    close(e.what());
    return false;
  }
}

bool Channel::closed() const { return closed_ || link_->closed() || !link_->route_lost(route_).empty(); }

std::string Channel::close_reason() const {
  if (closed_) return close_reason_;
  if (link_->closed()) return route_ < 0 ? link_->close_reason() : "relay link: " + link_->close_reason();
  return "relay: " + link_->route_lost(route_);
}

namespace {
std::string line_of(const Message& msg, int route) {
  nlohmann::json j;
  to_json(j, msg);
  return route < 0 ? j.dump() : std::to_string(route) + " " + j.dump();
}
}  // namespace

bool Channel::send(const Message& msg, SteadyTime deadline) {
  if (closed()) return false;
  return link_->send_line(line_of(msg, route_), deadline);
}

void Channel::queue(const Message& msg) {
  if (!closed()) link_->queue_line(line_of(msg, route_));
}

void Channel::close(const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  close_reason_ = reason;
  if (route_ < 0)
    link_->close(reason);
  else {  // without waiting: the relay drops the rank, whose process then sees its channel close
    link_->queue_line(std::to_string(route_) + " !" + reason);
    link_->flush();
  }
}

std::vector<Message> Channel::read_available() {
  std::vector<Message> out;
  if (closed_) return out;
  link_->pump();
  for (const auto& line : link_->take(route_)) {
    try {
      out.push_back(message_from_json(nlohmann::json::parse(line)));
    } catch (const nlohmann::json::exception&) {
      close("protocol error: malformed control message");
      return out;
    } catch (const ProtocolError& e) {
      close(std::string("protocol error: ") + e.what());
      return out;
    }
  }
  return out;
}

std::vector<Message> Channel::poll(int ms) {
  if (!closed() && !has_pending()) {
    pollfd p{fd(), POLLIN, 0};
    if (::poll(&p, 1, ms) > 0) link_->mark_readable();
  }
  return read_available();
}

LinkPoller::LinkPoller() : epoll_(::epoll_create1(EPOLL_CLOEXEC)) {
  if (!epoll_) throw TransportError("epoll_create1: " + errno_text(errno));
}

void LinkPoller::add(Link* link) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = link;
  if (!link->closed()) ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, link->fd(), &ev);
}

void LinkPoller::add_fd(int fd) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;
  ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev);
}

void LinkPoller::remove(Link* link) {
  if (!link->closed()) ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, link->fd(), nullptr);
}

std::vector<Link*> LinkPoller::wait(int ms) {
  epoll_event ev[256];
  const int n = ::epoll_wait(epoll_.get(), ev, 256, ms);
  std::vector<Link*> ready;
  for (int i = 0; i < n; ++i) {
    auto* link = static_cast<Link*>(ev[i].data.ptr);
    if (link) link->mark_readable();
    ready.push_back(link);
  }
  return ready;
}

Fd connect_control(const std::vector<std::string>& addresses, std::uint16_t port, SteadyTime deadline) {
  std::string tried;
  while (true) {
    for (const auto& a : addresses) {
      auto each = std::min(deadline, Clock::now() + std::chrono::seconds(3));
      try {
        return connect_tcp(a, port, "", each);
      } catch (const TransportError& e) {
        if (tried.find(a + ":") == std::string::npos) tried += (tried.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    if (Clock::now() >= deadline) throw TransportError("cannot reach rank 0's control channel: " + tried);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace ibburn::burn
