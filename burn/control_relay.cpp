#include "burn/control_relay.h"

#include <poll.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "burn/control_channel.h"
#include "burn/transport.h"

namespace ibburn::burn {
namespace {

using namespace std::chrono_literals;

long long steady_ns(SteadyTime t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// The rank a connection speaks for: the "rank" of its first message, a Hello.
int hello_rank(const std::string& line) {
  try {
    auto j = nlohmann::json::parse(line);
    if (j.value("type", "") == "hello") return j.at("rank").get<int>();
  } catch (const nlohmann::json::exception&) {
  }
  return -1;
}

struct Local {
  std::unique_ptr<Link> link;
  int rank = -1;  // until its Hello
};

// Writes what the ranks are still owed (their Done, mostly) for at most the deadline.
void drain(std::vector<Local>& locals, SteadyTime deadline) {
  while (Clock::now() < deadline) {
    std::vector<pollfd> fds;
    for (auto& l : locals)
      if (!l.link->closed() && l.link->wants_write()) fds.push_back({l.link->fd(), POLLOUT, 0});
    if (fds.empty()) return;
    ::poll(fds.data(), fds.size(), 50);
    for (auto& l : locals)
      if (l.link->wants_write()) l.link->flush();
  }
}

}  // namespace

std::string relay_path(const std::string& job, int rank) {
  const std::string name = fmt::format("ibburn-relay-{}-{}.sock", job, rank);
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  if (dir.size() + name.size() + 2 > 100) dir = "/tmp";  // sun_path holds 108 bytes
  return (std::filesystem::path(dir) / name).string();
}

Relay::Relay(std::string path) : path_(std::move(path)), listener_(listen_unix(path_, 1024)) {}

Relay::~Relay() {
  if (listener_) ::unlink(path_.c_str());
}

void Relay::finish(std::chrono::milliseconds grace) { finish_by_ns_ = steady_ns(Clock::now() + grace); }

void Relay::refuse() {
  listener_.reset();
  ::unlink(path_.c_str());
}

std::string Relay::run(Fd upstream) {
  Link up(std::move(upstream));
  std::vector<Local> locals;
  std::string why;
  while (why.empty()) {
    const long long finish_by = finish_by_ns_;
    if (finish_by && steady_ns(Clock::now()) >= finish_by) {
      why = "this rank finished";
      break;
    }
    std::vector<pollfd> fds{{up.fd(), static_cast<short>(POLLIN | (up.wants_write() ? POLLOUT : 0)), 0},
                            {listener_.get(), POLLIN, 0}};
    for (auto& l : locals)
      fds.push_back({l.link->fd(), static_cast<short>(POLLIN | (l.link->wants_write() ? POLLOUT : 0)), 0});
    ::poll(fds.data(), fds.size(), 200);
    if (fds[0].revents) up.mark_readable();
    for (std::size_t i = 0; i < locals.size(); ++i)
      if (fds[i + 2].revents) locals[i].link->mark_readable();
    if (fds[1].revents)
      for (Fd c; (c = accept_tcp(listener_.get(), Clock::now()));)
        locals.push_back({std::make_unique<Link>(std::move(c))});

    // Upwards: each rank's lines under its rank; a rank whose socket closed is reported once.
    for (auto& l : locals) {
      l.link->pump();
      for (auto& line : l.link->take(-1)) {
        if (l.rank < 0) l.rank = hello_rank(line);
        if (l.rank < 0) {
          l.link->close("protocol error: the first message is not a Hello");
          break;
        }
        up.queue_line(fmt::format("{} {}", l.rank, line));
      }
      if (l.link->closed() && l.rank >= 0) up.queue_line(fmt::format("{} !{}", l.rank, l.link->close_reason()));
    }
    std::erase_if(locals, [](const Local& l) { return l.link->closed(); });

    // Downwards: rank 0's lines to their rank; "!" drops the rank.
    up.pump();
    std::map<int, Link*> by_rank;
    for (auto& l : locals)
      if (l.rank >= 0) by_rank[l.rank] = l.link.get();
    for (auto& [rank, lines] : up.take_all())
      if (auto it = by_rank.find(rank); it != by_rank.end())
        for (const auto& line : lines) it->second->queue_line(line);
    for (auto& [rank, link] : by_rank) {
      link->flush();
      if (const std::string reason = up.route_lost(rank); !reason.empty()) link->close("rank 0 dropped it: " + reason);
    }
    up.flush();
    if (up.closed()) why = "rank 0 closed the link (" + up.close_reason() + ")";
  }
  drain(locals, Clock::now() + 1s);
  refuse();
  return why;
}

}  // namespace ibburn::burn
