#include "burn/verbs/async_events.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "host/sysfs_reader.h"

namespace ibburn::burn::verbs {
namespace {

std::string seconds_into(Clock::time_point at, Clock::time_point since) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", std::chrono::duration<double>(at - since).count());
  return text;
}

std::string port_state_name(ibv_port_state state) {
  switch (state) {
    case IBV_PORT_NOP: return "NOP";
    case IBV_PORT_DOWN: return "DOWN";
    case IBV_PORT_INIT: return "INIT";
    case IBV_PORT_ARMED: return "ARMED";
    case IBV_PORT_ACTIVE: return "ACTIVE";
    case IBV_PORT_ACTIVE_DEFER: return "ACTIVE_DEFER";
  }
  return "state " + std::to_string(static_cast<int>(state));
}

}  // namespace

std::string event_name(ibv_event_type type) {
  switch (type) {
    case IBV_EVENT_PORT_ERR: return "IBV_EVENT_PORT_ERR";
    case IBV_EVENT_PORT_ACTIVE: return "IBV_EVENT_PORT_ACTIVE";
    case IBV_EVENT_CQ_ERR: return "IBV_EVENT_CQ_ERR";
    case IBV_EVENT_QP_FATAL: return "IBV_EVENT_QP_FATAL";
    case IBV_EVENT_DEVICE_FATAL: return "IBV_EVENT_DEVICE_FATAL";
    case IBV_EVENT_LID_CHANGE: return "IBV_EVENT_LID_CHANGE";
    default: return "async event " + std::to_string(static_cast<int>(type));
  }
}

std::optional<std::string> local_port_fault(const LocalPortEvidence& e) {
  std::vector<std::string> facts;
  if (e.down) facts.push_back("is " + *e.down + " now");
  for (const AsyncEvent& ev : e.events) {
    const bool this_port = ev.port == e.port;
    if (ev.type == IBV_EVENT_PORT_ERR && this_port) {
      facts.push_back("went down " + seconds_into(ev.at, e.since) + " into the flow (" + event_name(ev.type) + ")");
    } else if (ev.type == IBV_EVENT_PORT_ACTIVE && this_port && !facts.empty()) {
      facts.push_back("came back " + seconds_into(ev.at, e.since) + " in (" + event_name(ev.type) + ")");
    } else if (ev.type == IBV_EVENT_DEVICE_FATAL) {
      facts.push_back("saw its adapter fail " + seconds_into(ev.at, e.since) + " into the flow (" +
                      event_name(ev.type) + ")");
    }
  }
  if (e.link_downed > 0) {
    facts.push_back("counted " + std::to_string(e.link_downed) + " link-down event" + (e.link_downed == 1 ? "" : "s") +
                    " (counters/link_downed)");
  }
  if (facts.empty()) return std::nullopt;
  std::string text = "local port " + e.port_name;
  for (size_t i = 0; i < facts.size(); ++i) text += (i == 0 ? " " : i + 1 == facts.size() ? " and " : ", ") + facts[i];
  return text;
}

PortMonitor::PortMonitor(const rdma::Context& context, uint8_t port, const std::string& sysfs_root)
    : context_(context), port_(port) {
  const std::string device = context_.api().get_device_name(context_->device);
  name_ = device + ":" + std::to_string(port);
  counter_path_ =
      sysfs_root + "/class/infiniband/" + device + "/ports/" + std::to_string(port) + "/counters/link_downed";
  const int fd = context_->async_fd;
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) rdma::throw_verbs_error("fcntl(async_fd)", errno);
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC);
  if (wake_fd_ < 0) rdma::throw_verbs_error("eventfd", errno);
  reader_ = std::thread([this] { read_loop(); });
}

PortMonitor::~PortMonitor() {
  const uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
  reader_.join();
  ::close(wake_fd_);
}

void PortMonitor::read_loop() {
  pollfd fds[2] = {{context_->async_fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  while (::poll(fds, 2, -1) >= 0 || errno == EINTR) {
    if (fds[1].revents != 0) return;
    if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) return;  // the device is gone: nothing more to read
    if (fds[0].revents != 0) drain();
  }
}

void PortMonitor::drain() const {
  std::lock_guard l(lock_);
  ibv_async_event raw{};
  while (context_.api().get_async_event(context_.get(), &raw) == 0) {
    AsyncEvent e;
    e.type = raw.event_type;
    e.at = Clock::now();
    switch (raw.event_type) {
      case IBV_EVENT_PORT_ERR:
      case IBV_EVENT_PORT_ACTIVE:
      case IBV_EVENT_LID_CHANGE: e.port = raw.element.port_num; break;
      case IBV_EVENT_CQ_ERR: e.cq = raw.element.cq; break;
      case IBV_EVENT_QP_FATAL:
      case IBV_EVENT_QP_REQ_ERR:
      case IBV_EVENT_QP_ACCESS_ERR: e.qp_num = raw.element.qp != nullptr ? raw.element.qp->qp_num : 0; break;
      default: break;
    }
    events_.push_back(e);
    recorded_.fetch_add(1, std::memory_order_release);
    // Unacknowledged events block the destruction of their QP or CQ.
    context_.api().ack_async_event(&raw);
  }
}

std::optional<uint64_t> PortMonitor::link_downed() const { return host::read_sysfs_number(counter_path_); }

PortMonitor::Mark PortMonitor::mark() const { return {Clock::now(), link_downed()}; }

std::vector<AsyncEvent> PortMonitor::events_since(Clock::time_point at) const {
  drain();
  std::lock_guard l(lock_);
  std::vector<AsyncEvent> out;
  for (const AsyncEvent& e : events_) {
    if (e.at >= at) out.push_back(e);
  }
  return out;
}

std::optional<std::string> PortMonitor::local_fault(const Mark& since) const {
  LocalPortEvidence e;
  e.port_name = name_;
  e.port = port_;
  e.since = since.at;
  e.events = events_since(since.at);
  ibv_port_attr attr{};
  if (context_.api().query_port(context_.get(), port_, &attr) == 0 && attr.state != IBV_PORT_ACTIVE) {
    e.down = port_state_name(attr.state);
  }
  const auto now = link_downed();
  if (now && since.link_downed && *now > *since.link_downed) e.link_downed = *now - *since.link_downed;
  return local_port_fault(e);
}

CompletionError PortMonitor::attribute(const CompletionError& error, const Mark& since) const {
  if (!path_loss(error.kind)) return error;
  const auto fault = local_fault(since);
  return fault ? blame_local_port(error, *fault) : error;
}

std::optional<CompletionError> PortMonitor::object_failure(Clock::time_point since, const std::vector<const void*>& cqs,
                                                           const std::vector<uint32_t>& qp_nums) const {
  for (const AsyncEvent& e : events_since(since)) {
    const std::string name = " (" + event_name(e.type) + " on " + name_ + ")";
    if (e.type == IBV_EVENT_CQ_ERR && std::find(cqs.begin(), cqs.end(), e.cq) != cqs.end()) {
      return CompletionError{"cq_overrun", "completion queue overrun: the CQ lost completions and is unusable" + name};
    }
    if (e.type == IBV_EVENT_QP_FATAL && std::find(qp_nums.begin(), qp_nums.end(), e.qp_num) != qp_nums.end()) {
      return CompletionError{"qp_fatal", "the local HCA moved QP " + std::to_string(e.qp_num) + " to error" + name};
    }
    if (e.type == IBV_EVENT_DEVICE_FATAL) {
      return CompletionError{"fatal", "fatal HCA error: the local adapter failed (check dmesg and firmware)" + name};
    }
  }
  return std::nullopt;
}

}  // namespace ibburn::burn::verbs
