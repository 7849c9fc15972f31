#include "burn/tcp_transport.h"
#include "common/payload_pattern.h"

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "burn/socket_util.h"
#include "burn/tcp_wire.h"
#include "common/error.h"

namespace ibburn::burn {
namespace {

using namespace std::chrono_literals;
constexpr auto kDrainGrace = 2s;                 // how long a stopped stream may take to finish cleanly
constexpr int kPollMs = 100;                     // how often workers look at the stop/abort flags
constexpr std::uint32_t kEndMagic = 0x4942454e;  // "IBEN": the sender finished cleanly

struct Hello {
  std::uint32_t magic = tcp::kHelloMagic;
  std::uint32_t stage = 0;
  std::uint32_t flow = 0;
  std::uint32_t stream = 0;
};

std::uint64_t stream_seq(std::uint32_t stream, std::uint64_t seq) { return (std::uint64_t(stream) << 48) ^ seq; }

class TcpConnection final : public Connection {
 public:
  TcpConnection(const ConnectionSpec& spec, std::string ip, std::size_t msg, bool verify, int sockbuf)
      : spec_(spec), ip_(std::move(ip)), msg_(msg), verify_(verify), sockbuf_(sockbuf) {
    if (spec_.streams < 1) spec_.streams = 1;
    if (!spec_.initiator) listener_ = listen_tcp(ip_, 0, spec_.streams + 4, &port_, sockbuf_);
  }

  ~TcpConnection() override {
    abort_ = true;
    stop_ = true;
    for (auto& s : socks_)
      if (s) ::shutdown(s.get(), SHUT_RDWR);
    for (auto& t : threads_) t.join();  // workers poll every kPollMs, so this is bounded
  }

  const ConnectionSpec& spec() const override { return spec_; }

  AddressBlob local_address() const override {
    std::string text = ip_ + " " + std::to_string(port_);
    return AddressBlob(text.begin(), text.end());
  }

  void connect(const AddressBlob& peer, Clock::time_point deadline) override {
    std::istringstream in(std::string(peer.begin(), peer.end()));
    std::string peer_ip;
    unsigned peer_port = 0;
    if (!(in >> peer_ip >> peer_port)) throw TransportError("malformed peer address");
    socks_.resize(spec_.streams);
    const std::string peer_name = fmt::format("rank {} ({})", spec_.peer_rank, peer_ip);
    try {
      if (spec_.initiator) {
        for (int s = 0; s < spec_.streams; ++s) {
          socks_[s] = connect_tcp(peer_ip, static_cast<std::uint16_t>(peer_port), ip_, deadline, sockbuf_);
          Hello h{tcp::kHelloMagic, spec_.stage, spec_.flow_id, static_cast<std::uint32_t>(s)};
          send_all(socks_[s].get(), &h, sizeof h, deadline);
        }
      } else {
        for (int got = 0; got < spec_.streams;) {
          Fd c = accept_tcp(listener_.get(), deadline);
          if (!c) throw TransportError(fmt::format("{} of {} streams connected by the deadline", got, spec_.streams));
          Hello h;
          recv_all(c.get(), &h, sizeof h, deadline);
          if (h.magic != tcp::kHelloMagic || h.stage != spec_.stage || h.flow != spec_.flow_id ||
              h.stream >= static_cast<std::uint32_t>(spec_.streams) || socks_[h.stream])
            throw TransportError(
                fmt::format("unexpected stream hello (stage {}, flow {}, stream {})", h.stage, h.flow, h.stream));
          socks_[h.stream] = std::move(c);
          ++got;
        }
        listener_.reset();
      }
    } catch (const TransportError& e) {
      throw TransportError(fmt::format("connecting to {}: {}", peer_name, e.what()));
    }
  }

  void start() override {
    started_ = Clock::now();
    for (int s = 0; s < spec_.streams; ++s) {
      if (spec_.send) launch([this, s] { send_loop(s); });
      if (spec_.receive) launch([this, s] { receive_loop(s); });
    }
  }

  void stop() override {
    std::lock_guard lock(mu_);
    if (!stop_) stop_at_ = Clock::now();
    stop_ = true;
  }

  bool wait(Clock::time_point deadline) override {
    std::unique_lock lock(mu_);
    return done_cv_.wait_until(lock, deadline, [&] { return running_ == 0; });
  }

  ConnectionCounters counters() const override {
    ConnectionCounters c;
    c.tx = {tx_bytes_.load(), tx_msgs_.load(), tx_errors_.load(), 0};
    c.rx = {rx_bytes_.load(), rx_msgs_.load(), rx_errors_.load(), rx_mismatches_.load()};
    return c;
  }

  std::optional<TransportFailure> error() const override {
    std::lock_guard lock(mu_);
    return error_;
  }

 private:
  void launch(std::function<void()> fn) {
    {
      std::lock_guard lock(mu_);
      ++running_;
    }
    threads_.emplace_back([this, fn = std::move(fn)] {
      fn();
      std::lock_guard lock(mu_);
      --running_;
      done_cv_.notify_all();
    });
  }

  void fail(int stream, const std::string& reason, bool peer_side) {
    std::lock_guard lock(mu_);
    if (!error_) error_ = TransportFailure{fmt::format("stream {}: {}", stream, reason), peer_side};
  }

  // The moment a stopped worker must give up (drain grace after stop()).
  bool past_grace() {
    std::lock_guard lock(mu_);
    return abort_ || (stop_ && Clock::now() > stop_at_ + kDrainGrace);
  }

  // Sends len bytes; returns false when the stream must end (error recorded unless stopping).
  bool send_bytes(int s, const char* p, std::size_t len) {
    const int rc = send_fully(socks_[s].get(), p, len, [this] { return past_grace() ? -1 : kPollMs; });
    if (rc > 0 && !stop_) {
      fail(s, fmt::format("send to rank {}: {}", spec_.peer_rank, errno_text(rc)), rc == ECONNRESET || rc == EPIPE);
      ++tx_errors_;
    }
    return rc == 0;
  }

  void send_loop(int s) {
    std::vector<std::uint64_t> words((sizeof(tcp::Header) + msg_ + 7) / 8);
    auto* base = reinterpret_cast<char*>(words.data());
    tcp::Header h;
    h.stage = spec_.stage;
    h.flow = spec_.flow_id;
    h.stream = static_cast<std::uint32_t>(s);
    h.length = static_cast<std::uint32_t>(msg_);
    auto* payload = reinterpret_cast<std::uint64_t*>(base + sizeof h);
    for (std::uint64_t seq = 0; !stop_; ++seq) {
      h.seq = seq;
      std::memcpy(base, &h, sizeof h);
      if (verify_)
        for (std::size_t i = 0; i < msg_ / 8; ++i)
          payload[i] = pattern_word(spec_.flow_id, stream_seq(h.stream, seq), i);
      if (!send_bytes(s, base, sizeof h + msg_)) return;
      tx_bytes_ += msg_;
      ++tx_msgs_;
    }
    // Destroyed without stop(): the peer must see the connection die, never a clean end.
    if (abort_) return;
    tcp::Header end = h;
    end.magic = kEndMagic;
    end.length = 0;
    if (send_bytes(s, reinterpret_cast<const char*>(&end), sizeof end)) ::shutdown(socks_[s].get(), SHUT_WR);
  }

  enum class Read { Ok, Eof, Stop };
  // Reads exactly len bytes; Eof when the peer closed before the first byte.
  Read read_bytes(int s, char* p, std::size_t len, bool* eof_midway) {
    const int fd = socks_[s].get();
    std::size_t got = 0;
    while (got < len) {
      ssize_t n = ::recv(fd, p + got, len - got, 0);
      if (n > 0) {
        got += static_cast<std::size_t>(n);
        continue;
      }
      if (n == 0) {
        *eof_midway = got > 0;
        return Read::Eof;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        if (!stop_)
          fail(s, fmt::format("receive from rank {}: {}", spec_.peer_rank, errno_text(errno)), errno == ECONNRESET);
        return Read::Stop;
      }
      if (past_grace()) return Read::Stop;
      wait_fd(fd, false, kPollMs);
    }
    return Read::Ok;
  }

  void receive_loop(int s) {
    std::vector<std::uint64_t> words((msg_ + 7) / 8);
    auto* payload = reinterpret_cast<char*>(words.data());
    tcp::Expectation expect{spec_.stage, spec_.flow_id, static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(msg_),
                            0};
    const std::string peer = fmt::format("rank {}", spec_.peer_rank);
    while (true) {
      tcp::Header h;
      bool midway = false;
      Read r = read_bytes(s, reinterpret_cast<char*>(&h), sizeof h, &midway);
      if (r == Read::Stop) return;
      if (r == Read::Eof) {
        if (!stop_) fail(s, peer + " closed the connection without finishing (process died?)", true);
        return;
      }
      if (h.magic == kEndMagic) return;  // the peer finished its stage cleanly
      std::string bad = tcp::check_header(h, expect);
      if (!bad.empty()) {
        ++rx_errors_;
        fail(s, "invalid message from " + peer + ": " + bad, true);
        return;  // framing can no longer be trusted on this stream
      }
      r = read_bytes(s, payload, h.length, &midway);
      if (r == Read::Stop) return;
      if (r == Read::Eof) {
        ++rx_errors_;
        if (!stop_) fail(s, peer + " closed the connection in the middle of a message (process died?)", true);
        return;
      }
      if (verify_) {
        std::uint64_t bad_words = 0;
        for (std::size_t i = 0; i < h.length / 8; ++i)
          bad_words += words[i] != pattern_word(spec_.flow_id, stream_seq(h.stream, h.seq), i);
        if (bad_words) {
          rx_mismatches_ += bad_words;
          fail(s, fmt::format("data mismatch from {}: {} words of message {} differ", peer, bad_words, h.seq), false);
        }
      }
      ++expect.seq;
      rx_bytes_ += h.length;
      ++rx_msgs_;
    }
  }

  ConnectionSpec spec_;
  std::string ip_;
  std::size_t msg_;
  bool verify_;
  int sockbuf_;
  Fd listener_;
  std::uint16_t port_ = 0;
  std::vector<Fd> socks_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false}, abort_{false};
  Clock::time_point started_, stop_at_;
  std::atomic<std::uint64_t> tx_bytes_{0}, tx_msgs_{0}, tx_errors_{0};
  std::atomic<std::uint64_t> rx_bytes_{0}, rx_msgs_{0}, rx_errors_{0}, rx_mismatches_{0};
  mutable std::mutex mu_;
  std::condition_variable done_cv_;
  int running_ = 0;
  std::optional<TransportFailure> error_;
};

double interface_gbps(const std::string& ifname) {
  std::ifstream in("/sys/class/net/" + ifname + "/speed");
  long mbps = 0;
  if (ifname.empty() || !(in >> mbps) || mbps <= 0) return 0;
  return static_cast<double>(mbps) / 1000.0;
}

class TcpTransport final : public Transport {
 public:
  explicit TcpTransport(const TransportOptions& o) : o_(o) {
    ip_ = resolve_ipv4(o.bind.empty() ? "127.0.0.1" : o.bind);
    msg_ = o.message_size ? o.message_size : (1u << 20);
    if (msg_ % 8 || msg_ > (1u << 30)) throw Error(kExitInput, "--msg-size must be a multiple of 8 bytes up to 1 GiB");
    sockbuf_ = 4 << 20;
    if (auto it = o.extra.find("sockbuf"); it != o.extra.end()) sockbuf_ = std::stoi(it->second);
  }
  std::string name() const override { return "tcp"; }
  EndpointInfo local_endpoint() const override {
    EndpointInfo e;
    e.host = hostname();
    std::string ifname = interface_of(ip_);
    e.endpoint = o_.bind.empty() ? (ifname.empty() ? ip_ : ifname) : o_.bind;
    e.address = ip_;
    e.link_layer = "Ethernet";
    e.rate_gbps = interface_gbps(ifname);
    return e;
  }
  std::unique_ptr<Connection> create(const ConnectionSpec& spec) override {
    return std::make_unique<TcpConnection>(spec, ip_, msg_, o_.verify, sockbuf_);
  }

 private:
  TransportOptions o_;
  std::string ip_;
  std::size_t msg_ = 0;
  int sockbuf_ = 0;
};

}  // namespace

std::unique_ptr<Transport> make_tcp_transport(const TransportOptions& options) {
  return std::make_unique<TcpTransport>(options);
}

}  // namespace ibburn::burn
