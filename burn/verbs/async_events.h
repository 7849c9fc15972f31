#pragma once
// The local HCA's own account of a failure. libibverbs reports port loss (PORT_ERR), port
// recovery (PORT_ACTIVE), CQ overrun (CQ_ERR), a QP the HCA killed (QP_FATAL) and a dead
// adapter (DEVICE_FATAL) only as async events on context->async_fd, never in a work
// completion. Before a "retries exhausted" completion is blamed on the peer, the port's
// state, these events and the port's link_downed counter are checked, so a flapping local
// cable is blamed on the local cable.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "burn/transport.h"
#include "burn/verbs/completion_errors.h"
#include "rdma/verbs_objects.h"

namespace ibburn::burn::verbs {

struct AsyncEvent {
  ibv_event_type type{};
  Clock::time_point at{};
  int port = 0;              // port events: which port
  uint32_t qp_num = 0;       // QP events: which QP
  const void* cq = nullptr;  // CQ events: which CQ (compared, never dereferenced)
};

// "IBV_EVENT_PORT_ERR"; "async event <n>" for the rest.
std::string event_name(ibv_event_type type);

// What the local side knew when a flow failed.
struct LocalPortEvidence {
  std::string port_name;  // "mlx5_0:1"
  int port = 1;
  std::optional<std::string> down;  // the port's state now when it is not ACTIVE ("DOWN")
  std::vector<AsyncEvent> events;   // the device's events since the flow began
  uint64_t link_downed = 0;         // rise of the port's link_downed counter since then
  Clock::time_point since{};        // when the flow began
};

// Why the local port or adapter, not the peer, explains a failure: one sentence naming the
// local device:port; nullopt when the local side saw nothing wrong.
std::optional<std::string> local_port_fault(const LocalPortEvidence& evidence);

// One device port's monitor: a thread reads the device's async events (the fd made
// non-blocking, so a reader deciding blame can also drain it at once) and records them.
class PortMonitor {
 public:
  // The flow's starting point: events and counter rises after it count against the port.
  struct Mark {
    Clock::time_point at{};
    std::optional<uint64_t> link_downed;
  };

  // The context must outlive the monitor. sysfs_root holds class/infiniband/<dev>/ports/<p>/counters.
  PortMonitor(const rdma::Context& context, uint8_t port, const std::string& sysfs_root = "/sys");
  ~PortMonitor();
  PortMonitor(const PortMonitor&) = delete;
  PortMonitor& operator=(const PortMonitor&) = delete;

  Mark mark() const;
  std::vector<AsyncEvent> events_since(Clock::time_point at) const;
  // The local explanation of a failure since `since`, if any (reads events, port, counter).
  std::optional<std::string> local_fault(const Mark& since) const;
  // `error` re-attributed to the local port when it is a path failure the local side explains.
  CompletionError attribute(const CompletionError& error, const Mark& since) const;

  // How many events have been recorded: a cheap test before object_failure().
  uint64_t recorded() const { return recorded_.load(std::memory_order_acquire); }
  // A flow's own objects failing without a work completion saying so: IBV_EVENT_CQ_ERR on
  // one of `cqs` (an overrun, which mlx5 reports only this way), QP_FATAL on one of
  // `qp_nums`, or DEVICE_FATAL, since `since`.
  std::optional<CompletionError> object_failure(Clock::time_point since, const std::vector<const void*>& cqs,
                                                const std::vector<uint32_t>& qp_nums) const;

 private:
  void drain() const;
  void read_loop();
  std::optional<uint64_t> link_downed() const;

  const rdma::Context& context_;
  uint8_t port_;
  std::string name_;
  std::string counter_path_;
  int wake_fd_ = -1;
  mutable std::mutex lock_;  // events_ and the async fd
  mutable std::vector<AsyncEvent> events_;
  mutable std::atomic<uint64_t> recorded_{0};
  std::thread reader_;
};

}  // namespace ibburn::burn::verbs
