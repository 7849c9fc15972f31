#include "tests/burn/protocol_ranks.h"

#include <sys/epoll.h>

#include <algorithm>

#include <fmt/format.h>

namespace ibburn::testing {

using namespace std::chrono_literals;
using burn::Clock;

namespace {

struct RankState {
  int stage = 0;
  std::vector<burn::FlowSetup> flows;
  bool running = false;
  Clock::time_point t0, next, end;
  int samples = 0;
  bool done = false;     // Done came, or the channel closed (also by a failed send)
  bool counted = false;  // out of `left`
};

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// Each flow end's sides as the real worker lists them: what this rank sends, then receives.
template <class F>
void each_side(int rank, const std::vector<burn::FlowSetup>& flows, F&& f) {
  for (const auto& fl : flows) {
    const int peer = rank == fl.src ? fl.dst : fl.src;
    if (rank == fl.src || fl.bidirectional) f(fl.id, rank, peer, false);
    if (rank == fl.dst || fl.bidirectional) f(fl.id, peer, rank, true);
  }
}

}  // namespace

void run_protocol_ranks(std::vector<ProtocolRank>& ranks, const std::string& token, double gbps,
                        ProtocolCounters* counters, int lost_rank) {
  const double bytes_per_s = gbps * 1e9 / 8;
  for (auto& r : ranks) {
    burn::Hello h;
    h.rank = r.rank;
    h.token = token;
    h.endpoint = {r.host, "sim_" + std::to_string(r.rank) + ":1", "", 0, 0, "", gbps, -1};
    r.channel.send(h, Clock::now() + 5s);
  }
  std::vector<RankState> st(ranks.size());
  auto report = [&](std::size_t i, Clock::time_point now) {
    RankState& s = st[i];
    const double secs = std::chrono::duration<double>(now - s.t0).count();
    burn::Report rep{s.stage, {}, {}};
    each_side(ranks[i].rank, s.flows, [&](std::uint32_t id, int from, int to, bool rx) {
      burn::SideReport side;
      side.flow = id;
      side.from = from;
      side.to = to;
      side.rx = rx;
      side.bytes = static_cast<std::uint64_t>(bytes_per_s * secs);
      side.seconds = secs;
      side.samples_gbps.assign(static_cast<std::size_t>(s.samples), gbps);
      rep.sides.push_back(std::move(side));
    });
    ranks[i].channel.send(rep, now + 5s);
    s.running = false;
  };
  // Only the ranks epoll finds readable are read, and the timers are walked once a due time
  // passes: thousands of ranks per thread cost little more than their messages.
  std::size_t left = ranks.size();
  auto next_due = Clock::time_point::max();
  auto handle = [&](std::size_t i, Clock::time_point now) {
    RankState& s = st[i];
    burn::Channel& ch = ranks[i].channel;
    for (const auto& m : ch.read_available()) {
      if (const auto* setup = std::get_if<burn::Setup>(&m)) {
        s.stage = setup->stage;
        s.flows = setup->flows;
        burn::Addresses a{s.stage, {}, {}, {}, {}};
        for (const auto& f : s.flows) a.addrs[f.id] = "00";
        ch.send(a, now + 5s);
      } else if (const auto* c = std::get_if<burn::Connect>(&m)) {
        ch.send(burn::Connected{c->stage, {}}, now + 5s);
      } else if (const auto* start = std::get_if<burn::Start>(&m)) {
        s.running = true;
        s.samples = 0;
        s.t0 = now;
        s.next = now + 1s;
        s.end = now + std::chrono::milliseconds(start->duration_ms);
        next_due = std::min(next_due, std::min(s.next, s.end));
        if (counters) {
          long long t = now_ns(), seen = counters->first_start_ns;
          while ((seen == 0 || t < seen) && !counters->first_start_ns.compare_exchange_weak(seen, t)) {
          }
        }
      } else if (std::holds_alternative<burn::Stop>(m) && s.running) {
        report(i, now);
      } else if (std::holds_alternative<burn::Done>(m)) {
        s.done = true;
      }
    }
  };
  auto settle = [&](std::size_t i) {
    RankState& s = st[i];
    if (ranks[i].channel.closed()) s.done = true;
    if (s.done && !s.counted) {
      s.counted = true;
      --left;
    }
  };
  auto tick = [&](std::size_t i, Clock::time_point now) {
    RankState& s = st[i];
    if (now >= s.end) {
      report(i, now);
      return;
    }
    if (now >= s.next && ranks[i].rank == lost_rank && s.samples == 2) {
      ranks[i].channel.close("the benchmark kills it");
      return;
    }
    if (now >= s.next) {
      ++s.samples;
      burn::Sample sample{s.stage, std::chrono::duration<double>(now - s.t0).count(), {}};
      each_side(ranks[i].rank, s.flows, [&](std::uint32_t id, int from, int to, bool rx) {
        sample.sides.push_back({id, from, to, rx, static_cast<std::uint64_t>(bytes_per_s * sample.seconds), gbps});
      });
      ranks[i].channel.send(sample, now + 5s);
      if (counters) ++counters->samples;
      s.next += 1s;
    }
    next_due = std::min(next_due, std::min(s.next, s.end));
  };
  burn::Fd ep(::epoll_create1(EPOLL_CLOEXEC));
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    ::epoll_ctl(ep.get(), EPOLL_CTL_ADD, ranks[i].channel.fd(), &ev);
  }
  std::vector<epoll_event> ready(1024);
  while (left > 0) {
    const auto wait = next_due == Clock::time_point::max() ? 50ms : next_due - Clock::now();
    const int n = ::epoll_wait(ep.get(), ready.data(), static_cast<int>(ready.size()),
                               static_cast<int>(std::clamp<long long>(
                                   std::chrono::duration_cast<std::chrono::milliseconds>(wait).count(), 0, 50)));
    const auto now = Clock::now();
    for (int k = 0; k < n; ++k) {
      const std::size_t i = ready[static_cast<std::size_t>(k)].data.u64;
      if (st[i].done) continue;
      ranks[i].channel.link()->mark_readable();
      handle(i, now);
      if (st[i].done && !ranks[i].channel.closed())
        ::epoll_ctl(ep.get(), EPOLL_CTL_DEL, ranks[i].channel.fd(), nullptr);
      settle(i);
    }
    if (now >= next_due) {
      next_due = Clock::time_point::max();
      for (std::size_t i = 0; i < ranks.size(); ++i)
        if (!st[i].done && st[i].running) {
          tick(i, now);
          settle(i);
        }
    }
  }
}

}  // namespace ibburn::testing
