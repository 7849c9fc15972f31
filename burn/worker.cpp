#include "burn/worker.h"

#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "burn/results.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/interrupt.h"

namespace ibburn::burn {

using namespace std::chrono_literals;

std::string to_hex(const AddressBlob& blob) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (auto b : blob) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

AddressBlob from_hex(const std::string& hex) {
  if (hex.size() % 2) throw std::invalid_argument("odd-length hex");
  AddressBlob out;
  for (std::size_t i = 0; i < hex.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

namespace {

// One direction of one flow as this rank sees it, with its per-second history.
struct Side {
  std::uint32_t flow = 0;
  int from = 0, to = 0;
  bool rx = false;
  std::uint64_t last_bytes = 0;
  Clock::time_point last_progress;
  std::vector<double> samples;
  std::string stall;  // first no-progress reason
};

struct FlowEnd {
  std::unique_ptr<Connection> conn;
  std::string failure;  // setup/connect failure
  std::vector<Side> sides;
};

class Worker {
 public:
  Worker(int rank, Channel& ch, Transport& t, const ControlOptions& o) : rank_(rank), ch_(ch), t_(t), o_(o) {}

  int run() {
    while (true) {
      if (interrupted()) return kExitInterrupted;
      auto msgs = ch_.poll(100);
      for (const auto& m : msgs) {
        if (std::holds_alternative<Done>(m)) return kExitOk;
        if (const auto* setup_msg = std::get_if<Setup>(&m))
          setup(*setup_msg);
        else if (const auto* connect_msg = std::get_if<Connect>(&m))
          connect(*connect_msg);
        else if (const auto* start = std::get_if<Start>(&m)) {
          int rc = run_stage(*start);
          if (rc != kExitOk) return rc;
        }
      }
      if (ch_.closed()) return kExitEnvironment;  // after the messages: "done" may come with EOF
    }
  }

 private:
  SteadyTime soon() const { return Clock::now() + 5s; }

  void setup(const Setup& m) {
    stage_ = m.stage;
    ends_.clear();  // the previous stage's connections: rank 0 has both ends' reports by now
    Addresses answer{stage_, {}, {}, {}, t_.port_counters()};
    for (const auto& flow : m.flows) {
      const auto id = flow.id;
      const int src = flow.src, dst = flow.dst;
      const bool bidir = flow.bidirectional;
      ConnectionSpec spec;
      spec.stage = static_cast<std::uint32_t>(stage_);
      spec.flow_id = id;
      spec.local_rank = rank_;
      spec.peer_rank = rank_ == src ? dst : src;
      spec.send = rank_ == src || bidir;
      spec.receive = rank_ == dst || bidir;
      spec.initiator = rank_ == src;
      spec.streams = flow.streams;
      FlowEnd& end = ends_[id];
      if (spec.send) end.sides.push_back({id, rank_, spec.peer_rank, false, 0, {}, {}, ""});
      if (spec.receive) end.sides.push_back({id, spec.peer_rank, rank_, true, 0, {}, {}, ""});
      try {
        end.conn = t_.create(spec);
        answer.addrs[id] = to_hex(end.conn->local_address());
      } catch (const std::exception& e) {
        end.failure = fmt::format("rank {}: {}", rank_, e.what());
        answer.failures[id] = end.failure;
        if (dynamic_cast<const EnvironmentError*>(&e)) answer.environment.push_back(id);
      }
    }
    ch_.send(answer, soon());
  }

  void connect(const Connect& m) {
    const auto deadline = Clock::now() + o_.timeout;
    Connected answer{stage_, {}};
    for (auto& [id, end] : ends_) {
      if (!end.conn) continue;
      auto peer = m.peers.find(id);
      if (peer == m.peers.end()) {
        end.conn.reset();  // the peer could not set up; rank 0 accounts for it
        auto reason = m.reasons.find(id);
        if (end.failure.empty()) end.failure = reason != m.reasons.end() ? reason->second : "peer not set up";
        continue;
      }
      try {
        end.conn->connect(from_hex(peer->second), deadline);
      } catch (const std::exception& e) {
        end.failure = fmt::format("rank {}: {}", rank_, e.what());
        answer.failures[id] = end.failure;
        end.conn.reset();
      }
    }
    ch_.send(answer, soon());
  }

  static std::uint64_t side_bytes(const ConnectionCounters& c, const Side& s) { return s.rx ? c.rx.bytes : c.tx.bytes; }

  Sample sample(Clock::time_point t0, Clock::time_point now, double interval_s) {
    Sample msg{stage_, std::chrono::duration<double>(now - t0).count(), {}};
    for (auto& [id, end] : ends_) {
      if (!end.conn) continue;
      auto c = end.conn->counters();
      for (auto& s : end.sides) {
        std::uint64_t b = side_bytes(c, s);
        double rate = gbps(b - s.last_bytes, interval_s);
        s.samples.push_back(rate);
        if (b != s.last_bytes) s.last_progress = now;
        s.last_bytes = b;
        if (s.stall.empty() && now - s.last_progress >= o_.stall_timeout) {
          auto secs = std::chrono::duration_cast<std::chrono::seconds>(o_.stall_timeout).count();
          s.stall = s.rx ? fmt::format("no data from rank {} for {} s (peer hung or path down)", s.from, secs)
                         : fmt::format("rank {} accepted no data for {} s (peer hung or path down)", s.to, secs);
        }
        msg.sides.push_back({id, s.from, s.to, s.rx, b, rate});
      }
    }
    return msg;
  }

  int run_stage(const Start& m) {
    const auto duration = std::chrono::milliseconds(m.duration_ms);
    const auto t0 = Clock::now();
    for (auto& [id, end] : ends_) {
      for (auto& s : end.sides) s.last_progress = t0;
      if (end.conn) end.conn->start();
    }
    auto next = t0 + 1s, last = t0;
    int rc = kExitOk;
    while (Clock::now() < t0 + duration) {
      auto wait = std::min(next, t0 + duration) - Clock::now();
      auto msgs = ch_.poll(static_cast<int>(
          std::clamp<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(wait).count(), 0, 100)));
      bool stop = false;
      for (const auto& x : msgs) stop |= std::holds_alternative<Stop>(x) || std::holds_alternative<Done>(x);
      if (ch_.closed()) rc = kExitEnvironment;
      if (interrupted()) rc = kExitInterrupted;
      if (stop || rc != kExitOk) break;
      auto now = Clock::now();
      if (now >= next) {
        ch_.send(sample(t0, now, std::chrono::duration<double>(now - last).count()), soon());
        last = now;
        next += 1s;
      }
    }
    const auto t1 = Clock::now();
    std::map<std::uint32_t, ConnectionCounters> at_stop;
    for (auto& [id, end] : ends_) {
      if (!end.conn) continue;
      at_stop[id] = end.conn->counters();
      end.conn->stop();
    }
    const auto wait_until = Clock::now() + (rc == kExitOk ? 3s : 300ms);
    for (auto& [id, end] : ends_)
      if (end.conn) end.conn->wait(wait_until);
    report(t0, t1, at_stop);
    // The connections stay until the next Setup or Done: the peer may still be draining the
    // writes this end has in flight (or sent), and destroying the QPs now would fail them.
    return rc;
  }

  void report(Clock::time_point t0, Clock::time_point t1, const std::map<std::uint32_t, ConnectionCounters>& at_stop) {
    Report answer{stage_, {}, {}};
    const double secs = std::chrono::duration<double>(t1 - t0).count();
    for (auto& [id, end] : ends_) {
      std::optional<ConnectionCounters> final_c;
      std::optional<TransportFailure> err;
      if (end.conn) {
        final_c = end.conn->counters();
        err = end.conn->error();
      }
      for (auto& s : end.sides) {
        SideReport r;
        r.flow = id;
        r.from = s.from;
        r.to = s.to;
        r.rx = s.rx;
        r.seconds = end.conn ? secs : 0;
        r.samples_gbps = s.samples;
        if (auto it = at_stop.find(id); it != at_stop.end()) r.bytes = side_bytes(it->second, s);
        if (final_c) {
          const auto& d = s.rx ? final_c->rx : final_c->tx;
          r.errors = d.errors;
          r.mismatches = d.mismatches;
        }
        if (!end.failure.empty())
          r.failure = end.failure;
        else if (err)
          r.failure = fmt::format("rank {}: {}", rank_, err->reason);
        else if (!s.stall.empty())
          r.failure = fmt::format("rank {}: {}", rank_, s.stall);
        answer.sides.push_back(std::move(r));
      }
    }
    answer.port_counters = t_.port_counters();
    ch_.send(answer, soon());
  }

  int rank_;
  Channel& ch_;
  Transport& t_;
  const ControlOptions& o_;
  int stage_ = 0;
  std::map<std::uint32_t, FlowEnd> ends_;
};

}  // namespace

int run_worker(int rank, Channel& control, Transport& transport, const ControlOptions& options) {
  return Worker(rank, control, transport, options).run();
}

}  // namespace ibburn::burn
