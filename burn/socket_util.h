#pragma once
// Thin, bounded socket helpers shared by the TCP transport and the control channel. Every
// blocking step takes a deadline; nothing here waits forever.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ibburn::burn {

using SteadyTime = std::chrono::steady_clock::time_point;

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

// Listening TCP socket on ip (IPv4 text, "0.0.0.0" for all) and port (0 = any); non-blocking.
// Accepted sockets inherit sockbuf (bytes, 0 = kernel autotuning). Throws TransportError.
Fd listen_tcp(const std::string& ip, std::uint16_t port, int backlog, std::uint16_t* bound_port, int sockbuf = 0);
// Connects from source_ip (empty = any) to ip:port by the deadline; returns a non-blocking
// socket. Throws TransportError with the reason ("connection refused", "timed out").
Fd connect_tcp(const std::string& ip, std::uint16_t port, const std::string& source_ip, SteadyTime deadline,
               int sockbuf = 0);
// Listening Unix stream socket at a filesystem path (replacing a stale one); non-blocking. A path,
// unlike a TCP port on loopback, is reachable from every network namespace of the host.
Fd listen_unix(const std::string& path, int backlog);
// Connects to a Unix stream socket by the deadline; returns a non-blocking socket.
Fd connect_unix(const std::string& path, SteadyTime deadline);
// Accepts one connection (TCP or Unix) by the deadline; returns an invalid Fd on timeout.
Fd accept_tcp(int listen_fd, SteadyTime deadline);
// Best effort; 0 = leave kernel autotuning. Uses SO_*BUFFORCE when allowed so the size is
// not clamped to net.core.{r,w}mem_max.
void set_socket_buffers(int fd, int bytes);
// The one send loop: writes all of buf to a non-blocking fd, and while the socket is full
// waits for room for next_wait() ms, or stops when that is negative. Returns 0 when all was
// sent, -1 when next_wait() gave up, else the errno of the failed send.
int send_fully(int fd, const char* buf, std::size_t len, const std::function<int()>& next_wait);
// Writes/reads all of buf by the deadline (non-blocking fd + poll). Throw TransportError on
// error, EOF or timeout.
void send_all(int fd, const void* buf, std::size_t len, SteadyTime deadline);
void recv_all(int fd, void* buf, std::size_t len, SteadyTime deadline);
// Waits for fd to be readable/writable for at most `ms`; true when ready (or on error/hangup,
// so the caller's next read/write reports it).
bool wait_fd(int fd, bool for_write, int ms);

// IPv4 address of an interface, or the text itself when it already is an IPv4 address.
// Throws EnvironmentError naming it otherwise.
std::string resolve_ipv4(const std::string& address_or_interface);
// Interface owning an IPv4 address ("" when none).
std::string interface_of(const std::string& ipv4);
// IPv4 addresses of this host's up interfaces, loopback last.
std::vector<std::string> local_ipv4_addresses();
std::string errno_text(int err);
// This host's name ("" when the kernel will not say).
std::string hostname();

}  // namespace ibburn::burn
