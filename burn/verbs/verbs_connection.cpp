#include "burn/verbs/verbs_connection.h"

#include <poll.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "burn/verbs/cpu_affinity.h"
#include "common/error.h"

namespace ibburn::burn::verbs {
namespace {

using namespace std::chrono_literals;

constexpr int kPollBatch = 32;
constexpr int kQpShift = 48;  // wr_id = QP index << 48 | WR number
constexpr uint64_t kWrMask = (uint64_t(1) << kQpShift) - 1;
// Immediates: the top bit marks a QP's end-of-stage marker, the low 31 bits count.
constexpr uint32_t kMarker = 0x80000000u;
constexpr uint32_t kImmMask = 0x7fffffffu;

bool points_at_peer(const std::string& kind) {
  return kind == "peer_unreachable" || kind == "peer_not_ready" || kind == "remote_access" ||
         kind == "remote_invalid_request" || kind == "remote_operation" || kind == "remote_abort" ||
         kind == "response_timeout";
}

}  // namespace

VerbsConnection::VerbsConnection(std::shared_ptr<const VerbsDevice> device, const VerbsSettings& settings,
                                 const ConnectionSpec& spec, bool verify, const MemoryFactory& memory)
    : device_(std::move(device)),
      api_(device_->context.api()),
      port_(device_->port),
      settings_(settings),
      spec_(spec),
      verify_(verify),
      ring_(verify ? static_cast<size_t>(settings_.rx_depth()) + 1 : 0),
      since_(device_->monitor ? device_->monitor->mark() : PortMonitor::Mark{}) {
  const size_t n = static_cast<size_t>(settings_.qps);
  const size_t msg = settings_.message_size;
  int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
  // An optional flag: libibverbs drops it on HCAs that do not support it.
  if (settings_.relaxed_ordering) access |= IBV_ACCESS_RELAXED_ORDERING;
  if (spec_.send) {
    send_mem_ = memory(device_->pd, n * (1 + 2 * ring_) * msg, access);
    for (size_t q = 0; q < n; ++q) {
      for (uint64_t k = 0; k < 2 * ring_; ++k) {
        send_mem_->fill(send_offset(q, k, true), msg, spec_.flow_id, verify_sequence(q, k));
      }
    }
  }
  if (spec_.receive) recv_mem_ = memory(device_->pd, n * (1 + ring_) * msg, access);

  channel_ = rdma::create_comp_channel(device_->context);
  // A QP in error flushes every outstanding WR, signalled or not: room for all of them.
  send_cq_ = rdma::create_cq(device_->context, settings_.qps * settings_.tx_depth + 1, nullptr);
  recv_cq_ = rdma::create_cq(device_->context, settings_.qps * settings_.rx_depth() + 1, &channel_);

  std::random_device rd;
  for (size_t q = 0; q < n; ++q) {
    ibv_qp_init_attr init{};
    init.send_cq = send_cq_.get();
    init.recv_cq = recv_cq_.get();
    init.qp_type = IBV_QPT_RC;
    init.cap.max_send_wr = static_cast<uint32_t>(settings_.tx_depth);
    init.cap.max_recv_wr = static_cast<uint32_t>(settings_.rx_depth());
    init.cap.max_send_sge = 1;
    init.cap.max_recv_sge = 1;
    Qp entry{rdma::create_qp(device_->pd, init), SendWindow(settings_.tx_depth, settings_.signal_every)};
    entry.psn = rd() & 0xffffff;
    QpTransition t = init_transition(port_.port, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
                                     static_cast<uint16_t>(port_.pkey_index));
    if (int rc = api_.modify_qp(entry.qp.get(), &t.attr, t.mask); rc != 0) {
      rdma::throw_verbs_error("ibv_modify_qp to INIT", rc);
    }
    qps_.push_back(std::move(entry));
    // Receives go up before the peer can write: one per signalled write in flight.
    if (spec_.receive) post_receives(q, settings_.rx_depth(), false);
  }
  wrs_.resize(static_cast<size_t>(settings_.post_list));
  sges_.resize(static_cast<size_t>(settings_.post_list));
}

VerbsConnection::~VerbsConnection() {
  abort_ = true;
  stop_ = true;
  if (worker_.joinable()) worker_.join();
}

void VerbsConnection::post_receives(size_t q, int count, bool on_worker) {
  for (int i = 0; i < count; ++i) {
    ibv_recv_wr wr{};
    wr.wr_id = uint64_t(q) << kQpShift;
    wr.num_sge = 0;  // write-with-immediate consumes a receive but carries no payload into it
    ibv_recv_wr* bad = nullptr;
    if (int rc = api_.post_recv(qps_[q].qp.get(), &wr, &bad); rc != 0) {
      if (!on_worker) rdma::throw_verbs_error("ibv_post_recv", rc);
      fail({"post_failed", std::string("ibv_post_recv failed: ") + std::strerror(rc)}, q);
      return;
    }
  }
}

AddressBlob VerbsConnection::local_address() const {
  FlowAddress a = address_of(port_);
  a.stage = spec_.stage;
  a.flow_id = spec_.flow_id;
  a.slot_bytes = settings_.message_size;
  if (recv_mem_) {
    a.addr = reinterpret_cast<uint64_t>(recv_mem_->data());
    a.rkey = recv_mem_->mr().rkey;
  }
  for (const Qp& q : qps_) a.qps.push_back({q.qp->qp_num, q.psn});
  return encode(a);
}

void VerbsConnection::connect(const AddressBlob& peer, Clock::time_point /*deadline: local*/) {
  FlowAddress r = decode_flow_address(peer);
  const std::string who = "flow " + std::to_string(spec_.flow_id) + ": ";
  if (r.stage != spec_.stage || r.flow_id != spec_.flow_id) {
    throw TransportError(who + "peer address is for stage " + std::to_string(r.stage) + " flow " +
                         std::to_string(r.flow_id));
  }
  if (r.qps.size() != qps_.size()) {
    throw TransportError(who + "peer has " + std::to_string(r.qps.size()) + " QPs, this end " +
                         std::to_string(qps_.size()) + " (same --qps on every rank)");
  }
  if (r.slot_bytes != settings_.message_size) {
    throw TransportError(who + "peer uses " + std::to_string(r.slot_bytes) + "-byte messages, this end " +
                         std::to_string(settings_.message_size));
  }
  if (auto why = address_mismatch(port_, r)) throw TransportError(who + *why);
  if (spec_.send && r.rkey == 0) throw TransportError(who + "peer has no receive buffer");
  for (size_t q = 0; q < qps_.size(); ++q) {
    QpTransition rtr = rtr_transition(port_, r, r.qps[q], settings_.path);
    if (int rc = api_.modify_qp(qps_[q].qp.get(), &rtr.attr, rtr.mask); rc != 0) {
      throw TransportError(who + "ibv_modify_qp to RTR failed: " + std::strerror(rc));
    }
    QpTransition rts = rts_transition(qps_[q].psn, settings_.path);
    if (int rc = api_.modify_qp(qps_[q].qp.get(), &rts.attr, rts.mask); rc != 0) {
      throw TransportError(who + "ibv_modify_qp to RTS failed: " + std::strerror(rc));
    }
  }
  remote_ = std::move(r);
  connected_ = true;
}

void VerbsConnection::start() {
  if (!connected_) throw TransportError("verbs connection started before connect()");
  worker_ = std::thread([this] { run(); });
}

void VerbsConnection::stop() { stop_ = true; }

bool VerbsConnection::wait(Clock::time_point deadline) {
  if (!worker_.joinable()) return true;
  std::unique_lock l(done_lock_);
  if (!done_cv_.wait_until(l, deadline, [this] { return done_; })) return false;
  l.unlock();
  worker_.join();
  return true;
}

ConnectionCounters VerbsConnection::counters() const {
  ConnectionCounters c;
  c.tx.bytes = tx_bytes_;
  c.tx.messages = tx_messages_;
  c.tx.errors = tx_errors_;
  c.rx.bytes = rx_bytes_;
  c.rx.messages = rx_messages_;
  c.rx.errors = rx_errors_;
  c.rx.mismatches = rx_mismatches_;
  return c;
}

std::optional<TransportFailure> VerbsConnection::error() const {
  std::lock_guard l(failure_lock_);
  return failure_;
}

std::string VerbsConnection::memory_description() const {
  const PayloadMemory* m = send_mem_ ? send_mem_.get() : recv_mem_.get();
  return m != nullptr ? m->description() : "no payload memory";
}

void VerbsConnection::fail(const CompletionError& error, size_t q) {
  // A lost local link looks like a dead peer from here: rule it out before blaming the peer.
  const CompletionError e = device_->monitor ? device_->monitor->attribute(error, since_) : error;
  std::lock_guard l(failure_lock_);
  const bool flush = e.kind == "flushed";
  // A flush only follows the real cause; let the cause replace it.
  if (!failure_ || (failure_is_flush_ && !flush)) {
    std::string where =
        q < qps_.size() ? "QP " + std::to_string(q + 1) + "/" + std::to_string(qps_.size()) + ": " : std::string();
    failure_ = TransportFailure{where + e.reason, points_at_peer(e.kind)};
    failure_is_flush_ = flush;
  }
  failed_ = true;
}

size_t VerbsConnection::receive_offset(size_t q, uint64_t k, bool signalled) const {
  const size_t slot = signalled && ring_ > 0 ? 1 + k % ring_ : 0;
  return (q * (1 + ring_) + slot) * settings_.message_size;
}

size_t VerbsConnection::send_offset(size_t q, uint64_t k, bool signalled) const {
  const size_t slot = signalled && ring_ > 0 ? 1 + k % (2 * ring_) : 0;
  return (q * (1 + 2 * ring_) + slot) * settings_.message_size;
}

uint64_t VerbsConnection::verify_sequence(size_t q, uint64_t k) const {
  return (uint64_t(q) << 32) | (ring_ > 0 ? k % (2 * ring_) : 0);
}

void VerbsConnection::post_some(size_t q, int count) {
  Qp& entry = qps_[q];
  const uint64_t local = reinterpret_cast<uint64_t>(send_mem_->data());
  const uint64_t se = static_cast<uint64_t>(settings_.signal_every);
  for (int j = 0; j < count; ++j) {
    const uint64_t n = entry.window.post();
    const bool signalled = entry.window.was_signalled(n);
    const uint64_t k = (n + 1) / se - 1;  // which write with immediate (when signalled)
    ibv_sge& sge = sges_[j];
    sge.addr = local + send_offset(q, k, signalled);
    sge.length = static_cast<uint32_t>(settings_.message_size);
    sge.lkey = send_mem_->mr().lkey;
    ibv_send_wr& wr = wrs_[j];
    wr = {};
    wr.wr_id = (uint64_t(q) << kQpShift) | n;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    // The signalled WR carries an immediate so the receiver sees the progress too.
    wr.opcode = signalled ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
    wr.send_flags = signalled ? IBV_SEND_SIGNALED : 0;
    wr.imm_data = htobe32(static_cast<uint32_t>(k) & kImmMask);
    wr.wr.rdma.remote_addr = remote_.addr + receive_offset(q, k, signalled);
    wr.wr.rdma.rkey = remote_.rkey;
    wr.next = j + 1 < count ? &wrs_[j + 1] : nullptr;
  }
  ibv_send_wr* bad = nullptr;
  if (int rc = api_.post_send(entry.qp.get(), wrs_.data(), &bad); rc != 0) {
    ++tx_errors_;
    fail({"post_failed", std::string("ibv_post_send failed: ") + std::strerror(rc)}, q);
  }
}

// A zero-byte signalled write-with-immediate after the QP's last data WR: its completion
// retires the unsignalled tail, its arrival tells the receiver the QP is drained.
void VerbsConnection::post_marker(size_t q) {
  Qp& entry = qps_[q];
  const uint64_t data_wrs = entry.window.posted();
  entry.marker = entry.window.post(true);
  ibv_send_wr wr{};
  wr.wr_id = (uint64_t(q) << kQpShift) | entry.marker;
  wr.num_sge = 0;
  wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
  wr.send_flags = IBV_SEND_SIGNALED;
  wr.imm_data = htobe32(kMarker | static_cast<uint32_t>(data_wrs % static_cast<uint64_t>(settings_.signal_every)));
  wr.wr.rdma.remote_addr = remote_.addr;
  wr.wr.rdma.rkey = remote_.rkey;
  ibv_send_wr* bad = nullptr;
  if (int rc = api_.post_send(entry.qp.get(), &wr, &bad); rc != 0) {
    ++tx_errors_;
    fail({"post_failed", std::string("ibv_post_send failed: ") + std::strerror(rc)}, q);
  }
}

template <class OnSuccess>
bool VerbsConnection::poll_batch(const rdma::CompletionQueue& cq, std::atomic<uint64_t>& errors, OnSuccess on_success) {
  ibv_wc wc[kPollBatch];
  const int n = api_.poll_cq(cq.get(), kPollBatch, wc);
  if (n < 0) {
    ++errors;
    fail(describe_poll_failure(n), SIZE_MAX);
    return false;
  }
  for (int i = 0; i < n; ++i) {
    const size_t q = wc[i].wr_id >> kQpShift;
    if (wc[i].status != IBV_WC_SUCCESS) {
      ++errors;
      fail(describe_completion_error(wc[i].status), q);
    } else {
      on_success(q, wc[i]);
    }
  }
  return n > 0;
}

bool VerbsConnection::poll_send() {
  return poll_batch(send_cq_, tx_errors_, [this](size_t q, const ibv_wc& wc) {
    const uint64_t n = wc.wr_id & kWrMask;
    // The marker is no message of its own.
    const uint64_t retired = qps_[q].window.complete(n) - (n == qps_[q].marker ? 1 : 0);
    tx_messages_ += retired;
    tx_bytes_ += retired * settings_.message_size;
  });
}

bool VerbsConnection::poll_receive() {
  return poll_batch(recv_cq_, rx_errors_, [this](size_t q, const ibv_wc& wc) {
    Qp& entry = qps_[q];
    const uint32_t imm = be32toh(wc.imm_data);
    uint64_t messages = 0;
    if (imm & kMarker) {
      entry.marker_seen = true;
      messages = imm & kImmMask;  // the data WRs after the last immediate
    } else {
      if (imm != (static_cast<uint32_t>(entry.imms_seen) & kImmMask)) {
        ++rx_errors_;  // the sender skipped or repeated (RC delivers in order): count it, follow it
        entry.imms_seen = (entry.imms_seen & ~uint64_t(kImmMask)) | imm;
      }
      messages = static_cast<uint64_t>(settings_.signal_every);
    }
    rx_messages_ += messages;
    rx_bytes_ += messages * settings_.message_size;
    if (imm & kMarker) return;  // nothing follows it: no receive to repost
    if (verify_) verify_received(q, entry.imms_seen);
    ++entry.imms_seen;
    // Only now: the write that reuses this ring slot needs this receive (see the header).
    post_receives(q, 1, true);
  });
}

void VerbsConnection::verify_received(size_t q, uint64_t k) {
  rx_mismatches_ += recv_mem_->count_mismatches(receive_offset(q, k, true), settings_.message_size, spec_.flow_id,
                                                verify_sequence(q, k));
}

// A receive-only end sleeps on the completion channel instead of spinning a core.
void VerbsConnection::wait_receive_event() {
  if (api_.req_notify_cq(recv_cq_.get(), 0) != 0) return;
  if (poll_receive()) return;  // a completion raced the arming
  pollfd p{channel_->fd, POLLIN, 0};
  if (::poll(&p, 1, 10) == 1) {
    ibv_cq* cq = nullptr;
    void* context = nullptr;
    if (api_.get_cq_event(channel_.get(), &cq, &context) == 0) api_.ack_cq_events(cq, 1);
  }
}

bool VerbsConnection::sends_retired() const {
  return std::all_of(qps_.begin(), qps_.end(),
                     [](const Qp& q) { return q.marker != UINT64_MAX && q.window.outstanding() == 0; });
}

// A CQ overrun, a fatal QP or a dead adapter arrive as async events, not as completions.
void VerbsConnection::check_async_events() {
  events_seen_ = device_->monitor->recorded();
  std::vector<uint32_t> qp_nums;
  for (const Qp& q : qps_) qp_nums.push_back(q.qp->qp_num);
  const auto e = device_->monitor->object_failure(since_.at, {send_cq_.get(), recv_cq_.get()}, qp_nums);
  if (e) fail(*e, SIZE_MAX);
}

bool VerbsConnection::markers_seen() const {
  return std::all_of(qps_.begin(), qps_.end(), [](const Qp& q) { return q.marker_seen; });
}

// The worker thread. Nothing may escape it (std::terminate would take the rank down with no
// reason on record): a CUDA error while verifying, or a broken invariant, fails the flow.
void VerbsConnection::run() {
  try {
    pin_current_thread(device_->local_cpus);
    pump();
  } catch (const EnvironmentError& e) {
    fail({"gpu_error", std::string("payload memory: ") + e.what()}, SIZE_MAX);
  } catch (const std::exception& e) {
    fail({"internal", std::string("internal error: ") + e.what()}, SIZE_MAX);
  }
  std::lock_guard l(done_lock_);
  done_ = true;
  done_cv_.notify_all();
}

void VerbsConnection::pump() {
  Clock::time_point stop_at{};
  while (!abort_ && !failed_) {
    if (device_->monitor && device_->monitor->recorded() != events_seen_) check_async_events();
    const bool stopping = stop_;
    if (stopping && stop_at == Clock::time_point{}) stop_at = Clock::now();
    bool progress = false;
    if (spec_.send) {
      for (size_t q = 0; q < qps_.size() && !failed_; ++q) {
        SendWindow& w = qps_[q].window;
        if (!stopping) {
          const int count = std::min(w.room(), settings_.post_list);
          if (count > 0) post_some(q, count);
        } else if (qps_[q].marker == UINT64_MAX && w.room() > 0) {
          post_marker(q);
        }
      }
      progress = poll_send();
    }
    if (spec_.receive && poll_receive()) progress = true;
    if (stopping) {
      const bool sent = !spec_.send || sends_retired();
      const bool received = !spec_.receive || markers_seen();
      // At the limit a marker never came (the peer stopped late, hung or failed: its own
      // report says which); the connection stays until rank 0 has both reports.
      if ((sent && received) || Clock::now() - stop_at >= settings_.drain_limit) break;
    }
    if (!spec_.send && !progress) wait_receive_event();
  }
  if (failed_) find_cause_of_flush();
}

void VerbsConnection::find_cause_of_flush() {
  // A QP's error flushes its receives at once, while the cause (retries exhausted on a send)
  // may still be on its way to the send CQ: read both a little longer, or the flow's reason
  // would be only the flush.
  const auto until = Clock::now() + kCauseWait;
  while (Clock::now() < until) {
    {
      std::lock_guard l(failure_lock_);
      if (!failure_is_flush_) return;
    }
    const bool sent = spec_.send && poll_send();
    const bool received = spec_.receive && poll_receive();
    if (!sent && !received) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace ibburn::burn::verbs
