#include "run/sim_counters.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"
#include "common/guid.h"
#include "run/modelled_counters.h"

namespace ibburn::run {
SimDataCounters::SimDataCounters(std::string console, const routing::RouteModel& model,
                                 std::vector<double> capacity_gbps)
    : console_(std::move(console)), model_(model), capacity_(std::move(capacity_gbps)) {}

std::string SimDataCounters::node_id(topo::NodeId n) const {
  const topo::Node& node = model_.fabric.node(n);
  return fmt::format("{}-{}", node.is_switch() ? 'S' : 'H', Guid{node.guid}.digits());
}

void SimDataCounters::start_from(const counters::Snapshot& s) {
  using counters::Counter;
  for (const auto& p : s.ports)
    if (p.reachable && p.counters.has(Counter::PortXmitData) && p.counters.has(Counter::PortRcvData))
      words_[{p.node_guid, p.port}] = {
          p.counters.get(Counter::PortXmitData), p.counters.get(Counter::PortRcvData),
          p.counters.has(Counter::PortXmitWait) ? p.counters.get(Counter::PortXmitWait) : 0};
}

void SimDataCounters::add(const std::vector<double>& edge_gbps, double seconds) {
  std::string text;
  auto line = [&](topo::PortEnd at, const char* attribute, const char* field, uint64_t value) {
    text += fmt::format("PerformanceSet \"{}\"[{}] {}.{}={}\n", node_id(at.node), at.port, attribute, field, value);
  };
  for (const PortRise& r : modelled_rises(model_, capacity_, edge_gbps, seconds)) {
    const PortKey key{model_.fabric.node(r.port.node).guid, r.port.port};
    Count& c = words_[key];
    if (r.xmit_words) {
      c.xmit += r.xmit_words;
      line(r.port, "PortCountersExtended", "PortXmitData", c.xmit);
      last_key_ = key;
      last_xmit_ = c.xmit;
      sent_ = true;
    }
    if (r.rcv_words) c.rcv += r.rcv_words, line(r.port, "PortCountersExtended", "PortRcvData", c.rcv);
    // PortCounters' 32-bit field; the model stays far below it within a stage.
    if (r.xmit_wait) c.wait += r.xmit_wait, line(r.port, "PortCounters", "PortXmitWait", c.wait);
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
