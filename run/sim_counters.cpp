#include "run/sim_counters.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"

namespace ibburn::run {
SimDataCounters::SimDataCounters(std::string console, const plan::RouteModel& model)
    : console_(std::move(console)), model_(model) {}

std::string SimDataCounters::node_id(topo::NodeId n) const {
  const topo::Node& node = model_.fabric.node(n);
  return fmt::format("{}-{:016x}", node.is_switch() ? 'S' : 'H', node.guid);
}

void SimDataCounters::start_from(const counters::Snapshot& s) {
  for (const auto& p : s.ports)
    if (p.reachable && p.counters.has(counters::Counter::PortXmitData) && p.counters.has(counters::Counter::PortRcvData))
      words_[{p.node_guid, p.port}] = {p.counters.get(counters::Counter::PortXmitData),
                                           p.counters.get(counters::Counter::PortRcvData)};
}

void SimDataCounters::add(const std::vector<double>& edge_gbps, double seconds) {
  std::string text;
  auto line = [&](topo::PortEnd at, const char* field, uint64_t value) {
    text += fmt::format("PerformanceSet \"{}\"[{}] PortCountersExtended.{}={}\n", node_id(at.node), at.port, field,
                        value);
  };
  for (plan::EdgeId e = 0; e < edge_gbps.size() && e < model_.cables->size(); ++e) {
    const auto words = static_cast<uint64_t>(edge_gbps[e] * 1e9 / 8 * seconds / 4);
    if (words == 0) continue;
    const plan::Edge& edge = model_.cables->edge(e);
    const PortKey out{model_.fabric.node(edge.from.node).guid, edge.from.port};
    const PortKey in{model_.fabric.node(edge.to.node).guid, edge.to.port};
    words_[out].first += words;
    words_[in].second += words;
    line(edge.from, "PortXmitData", words_[out].first);
    line(edge.to, "PortRcvData", words_[in].second);
    last_key_ = out;
    last_xmit_ = words_[out].first;
    sent_ = true;
  }
  if (text.empty()) return;
  const int fd = ::open(console_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw EnvironmentError(console_ + ": cannot open ibsim's console: " + std::strerror(errno));
  // Blocking from here: ibsim reads a line at a time.
  ::fcntl(fd, F_SETFL, 0);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw EnvironmentError(console_ + ": writing to ibsim's console failed: " + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

bool SimDataCounters::applied(const counters::Snapshot& s) const {
  if (!sent_) return true;
  for (const auto& p : s.ports)
    if (PortKey{p.node_guid, p.port} == last_key_)
      return !p.reachable ||  // gone from the fabric (a switch that dropped out): nothing to wait for
             (p.counters.has(counters::Counter::PortXmitData) &&
              p.counters.get(counters::Counter::PortXmitData) >= last_xmit_);
  return true;  // the port was not swept: nothing to wait for
}

}  // namespace ibburn::run
