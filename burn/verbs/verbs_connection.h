#pragma once
// One end of one flow over RC QPs: `qps` QPs, each writing its own part of the peer's
// receive buffer with RDMA WRITE. One WR in every `signal_every` is a signalled
// write-with-immediate whose immediate is its number k among them (31 bits), so the receiver
// sees progress (signal_every messages per immediate) while the sender retires its window. A
// worker thread posts chains of up to `post_list` WRs, never more than `tx_depth` outstanding
// per QP.
//
// Stage end: at stop each QP posts, after its last data WR, a signalled zero-byte
// write-with-immediate whose immediate has the top bit set (the end marker; the low bits
// count the data WRs after the last immediate). The receiver is drained when every QP's marker
// arrived, or at drain_limit; the engine destroys the connection only after rank 0 has both
// ends' reports, so writes still in flight at stop are neither dropped nor failed.
//
// Layout per QP: one slot every plain write lands in (not verified). With --verify, also a ring
// of rx_depth + 1 slots for the writes with immediate, each written once per lap: write k lands
// in ring slot k % ring from send slot k % (2 ring) (two laps of sources, so each lap's bytes
// differ from the last) and the receiver checks it against verify_sequence(qp, k). Receive k is
// reposted only after that check, and a write with immediate needs a posted receive, so no later
// write touches slot k % ring while it is checked (one more slot than receives covers an RNR'd
// write's first packets): a lost or stale write shows as mismatches, never a false one.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "burn/transport.h"
#include "burn/verbs/async_events.h"
#include "burn/verbs/completion_errors.h"
#include "burn/verbs/payload_memory.h"
#include "burn/verbs/port_info.h"
#include "burn/verbs/qp_address.h"
#include "burn/verbs/send_window.h"
#include "burn/verbs/verbs_settings.h"

namespace ibburn::burn::verbs {

// The opened port every connection of a transport shares; connections keep it alive so
// they can outlive the Transport object without closing the device under their QPs.
struct VerbsDevice {
  rdma::Context context;
  rdma::ProtectionDomain pd;
  PortInfo port;
  std::vector<int> local_cpus;           // the HCA's local CPUs, where the workers run; empty: unknown
  std::unique_ptr<PortMonitor> monitor;  // last: stops reading events before the context closes
};

// Allocates payload memory for a connection (host or GPU): a Transport-wide choice.
using MemoryFactory =
    std::function<std::unique_ptr<PayloadMemory>(const rdma::ProtectionDomain&, size_t bytes, int access)>;

class VerbsConnection final : public Connection {
 public:
  VerbsConnection(std::shared_ptr<const VerbsDevice> device, const VerbsSettings& settings, const ConnectionSpec& spec,
                  bool verify, const MemoryFactory& memory);
  ~VerbsConnection() override;

  const ConnectionSpec& spec() const override { return spec_; }
  AddressBlob local_address() const override;
  void connect(const AddressBlob& peer, Clock::time_point deadline) override;
  void start() override;
  void stop() override;
  bool wait(Clock::time_point deadline) override;
  ConnectionCounters counters() const override;
  std::optional<TransportFailure> error() const override;

  // How the payload buffers were allocated and registered, for the run's log.
  std::string memory_description() const;

 private:
  struct Qp {
    rdma::QueuePair qp;
    SendWindow window;
    uint32_t psn = 0;
    uint64_t marker = UINT64_MAX;  // sender: WR number of the end marker, once posted
    uint64_t imms_seen = 0;        // receiver: data immediates seen (the next one's k)
    bool marker_seen = false;      // receiver
  };

  void run();
  void pump();
  // After a failure that is only a flush, the CQs read a little longer for its cause.
  void find_cause_of_flush();
  static constexpr std::chrono::milliseconds kCauseWait{200};
  void post_some(size_t q, int count);
  void post_marker(size_t q);
  // Polls one batch from `cq`: failed completions (and a failed poll) count in `errors` and
  // fail the flow; each success goes to on_success(qp index, wc). True when any arrived.
  template <class OnSuccess>
  bool poll_batch(const rdma::CompletionQueue& cq, std::atomic<uint64_t>& errors, OnSuccess on_success);
  bool poll_send();
  bool poll_receive();
  void wait_receive_event();
  // on_worker: a failure fails the flow (the worker's way) instead of throwing (construction).
  void post_receives(size_t q, int count, bool on_worker);
  void fail(const CompletionError& e, size_t q);
  bool sends_retired() const;
  void check_async_events();
  bool markers_seen() const;
  // --verify layout (see above); `ring_` is 0 without --verify: every write to slot 0.
  size_t receive_offset(size_t q, uint64_t k, bool signalled) const;
  size_t send_offset(size_t q, uint64_t k, bool signalled) const;
  uint64_t verify_sequence(size_t q, uint64_t k) const;
  void verify_received(size_t q, uint64_t k);

  std::shared_ptr<const VerbsDevice> device_;
  const rdma::VerbsApi& api_;
  const PortInfo& port_;
  VerbsSettings settings_;
  ConnectionSpec spec_;
  bool verify_;
  size_t ring_;
  std::unique_ptr<PayloadMemory> send_mem_;
  std::unique_ptr<PayloadMemory> recv_mem_;
  rdma::CompChannel channel_;
  rdma::CompletionQueue send_cq_;
  rdma::CompletionQueue recv_cq_;
  std::vector<Qp> qps_;
  FlowAddress remote_;
  std::vector<ibv_send_wr> wrs_;  // scratch for one post list
  std::vector<ibv_sge> sges_;
  bool connected_ = false;

  std::thread worker_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> abort_{false};
  std::mutex done_lock_;
  std::condition_variable done_cv_;
  bool done_ = false;

  std::atomic<uint64_t> tx_bytes_{0}, tx_messages_{0}, tx_errors_{0};
  std::atomic<uint64_t> rx_bytes_{0}, rx_messages_{0}, rx_errors_{0}, rx_mismatches_{0};
  mutable std::mutex failure_lock_;
  std::optional<TransportFailure> failure_;
  bool failure_is_flush_ = false;
  std::atomic<bool> failed_{false};
  PortMonitor::Mark since_;   // local port events and counters after this can explain a failure
  uint64_t events_seen_ = 0;  // worker only: the monitor's event count last checked
};

}  // namespace ibburn::burn::verbs
