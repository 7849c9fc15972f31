#include "burn/socket_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "burn/transport.h"
#include "common/error.h"

namespace ibburn::burn {
namespace {

int ms_until(SteadyTime deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(std::min<long long>(left, 100));
}

sockaddr_in make_addr(const std::string& ip, std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  if (inet_pton(AF_INET, ip.c_str(), &a.sin_addr) != 1) throw TransportError("not an IPv4 address: \"" + ip + "\"");
  return a;
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

std::string errno_text(int err) { return std::strerror(err); }

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}
Fd::~Fd() { reset(); }
void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Fd listen_tcp(const std::string& ip, std::uint16_t port, int backlog, std::uint16_t* bound_port, int sockbuf) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) throw TransportError("socket: " + errno_text(errno));
  set_socket_buffers(fd.get(), sockbuf);
  int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a = make_addr(ip, port);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    throw TransportError("cannot listen on " + ip + ":" + std::to_string(port) + ": " + errno_text(errno));
  if (::listen(fd.get(), backlog) != 0) throw TransportError("listen: " + errno_text(errno));
  socklen_t len = sizeof a;
  getsockname(fd.get(), reinterpret_cast<sockaddr*>(&a), &len);
  if (bound_port) *bound_port = ntohs(a.sin_port);
  set_nonblocking(fd.get());
  return fd;
}

Fd connect_tcp(const std::string& ip, std::uint16_t port, const std::string& source_ip, SteadyTime deadline,
               int sockbuf) {
  const std::string target = ip + ":" + std::to_string(port);
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) throw TransportError("socket: " + errno_text(errno));
  set_socket_buffers(fd.get(), sockbuf);
  if (!source_ip.empty()) {
    sockaddr_in src = make_addr(source_ip, 0);
    if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&src), sizeof src) != 0)
      throw TransportError("cannot bind to " + source_ip + ": " + errno_text(errno));
  }
  set_nonblocking(fd.get());
  sockaddr_in a = make_addr(ip, port);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno != EINPROGRESS)
    throw TransportError("connect to " + target + ": " + errno_text(errno));
  while (true) {
    pollfd p{fd.get(), POLLOUT, 0};
    int n = ::poll(&p, 1, ms_until(deadline));
    if (n > 0) break;
    if (n < 0 && errno != EINTR) throw TransportError("poll: " + errno_text(errno));
    if (Clock::now() >= deadline) throw TransportError("connect to " + target + ": timed out");
  }
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) throw TransportError("connect to " + target + ": " + errno_text(err));
  int one = 1;
  setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

namespace {
sockaddr_un unix_addr(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path.size() >= sizeof a.sun_path) throw TransportError("socket path too long: " + path);
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return a;
}
}  // namespace

Fd listen_unix(const std::string& path, int backlog) {
  sockaddr_un a = unix_addr(path);
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) throw TransportError("socket: " + errno_text(errno));
  ::unlink(path.c_str());
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    throw TransportError("cannot listen on " + path + ": " + errno_text(errno));
  if (::listen(fd.get(), backlog) != 0) throw TransportError("listen: " + errno_text(errno));
  set_nonblocking(fd.get());
  return fd;
}

Fd connect_unix(const std::string& path, SteadyTime deadline) {
  sockaddr_un a = unix_addr(path);
  while (true) {
    Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) throw TransportError("socket: " + errno_text(errno));
    if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      set_nonblocking(fd.get());
      return fd;
    }
    // A full backlog (EAGAIN) clears as the listener accepts: try again until the deadline.
    const int err = errno;
    if ((err != EAGAIN && err != EINTR) || Clock::now() >= deadline)
      throw TransportError("connect to " + path + ": " + errno_text(err));
    ::poll(nullptr, 0, 10);
  }
}

Fd accept_tcp(int listen_fd, SteadyTime deadline) {
  while (true) {
    int c = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (c >= 0) {
      int one = 1;
      setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return Fd(c);
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
      throw TransportError("accept: " + errno_text(errno));
    if (Clock::now() >= deadline) return Fd();
    wait_fd(listen_fd, false, ms_until(deadline));
  }
}

void set_socket_buffers(int fd, int bytes) {
  if (bytes <= 0) return;
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bytes, sizeof bytes) != 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
}

bool wait_fd(int fd, bool for_write, int ms) {
  pollfd p{fd, static_cast<short>(for_write ? POLLOUT : POLLIN), 0};
  return ::poll(&p, 1, ms) > 0;
}

int send_fully(int fd, const char* p, std::size_t len, const std::function<int()>& next_wait) {
  while (len > 0) {
    ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL);
    if (n > 0) {
      p += n;
      len -= static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return errno;
    const int ms = next_wait();
    if (ms < 0) return -1;
    wait_fd(fd, true, ms);
  }
  return 0;
}

void send_all(int fd, const void* buf, std::size_t len, SteadyTime deadline) {
  const int rc = send_fully(fd, static_cast<const char*>(buf), len,
                            [&] { return Clock::now() >= deadline ? -1 : ms_until(deadline); });
  if (rc > 0) throw TransportError("send: " + errno_text(rc));
  if (rc < 0) throw TransportError("send: timed out");
}

void recv_all(int fd, void* buf, std::size_t len, SteadyTime deadline) {
  auto* p = static_cast<char*>(buf);
  while (len > 0) {
    ssize_t n = ::recv(fd, p, len, 0);
    if (n > 0) {
      p += n;
      len -= static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) throw TransportError("connection closed by peer");
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) throw TransportError("recv: " + errno_text(errno));
    if (Clock::now() >= deadline) throw TransportError("recv: timed out");
    wait_fd(fd, false, ms_until(deadline));
  }
}

std::string resolve_ipv4(const std::string& what) {
  in_addr tmp{};
  if (inet_pton(AF_INET, what.c_str(), &tmp) == 1) return what;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) throw EnvironmentError("getifaddrs: " + errno_text(errno));
  std::string found;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && what == i->ifa_name) {
      char buf[INET_ADDRSTRLEN];
      inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, buf, sizeof buf);
      found = buf;
      break;
    }
  }
  freeifaddrs(list);
  if (found.empty()) throw EnvironmentError("\"" + what + "\" is neither an IPv4 address nor an interface with one");
  return found;
}

std::string interface_of(const std::string& ipv4) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "";
  std::string name;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, buf, sizeof buf);
    if (ipv4 == buf) {
      name = i->ifa_name;
      break;
    }
  }
  freeifaddrs(list);
  return name;
}

std::string hostname() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "";
  return host;
}

std::vector<std::string> local_ipv4_addresses() {
  std::vector<std::string> out, loop;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return {"127.0.0.1"};
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)) continue;
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, buf, sizeof buf);
    (i->ifa_flags & IFF_LOOPBACK ? loop : out).push_back(buf);
  }
  freeifaddrs(list);
  out.insert(out.end(), loop.begin(), loop.end());
  return out;
}

}  // namespace ibburn::burn
