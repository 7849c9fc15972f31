#include "topo/mad_window.h"

#include <infiniband/umad.h>
#include <poll.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <unordered_map>

#include "common/cpu_pin.h"
#include "common/error.h"

namespace ibburn::topo {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMadSize = 256;
constexpr uint32_t kQp1Qkey = 0x80010000;
constexpr uint16_t kPermissiveLid = 0xFFFF;

void put16(uint8_t* p, uint16_t v) {
  p[0] = v >> 8;
  p[1] = v & 0xFF;
}
void put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (24 - 8 * i));
}
uint16_t get16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t get32(const uint8_t* p) { return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3]; }

// MAD common header (IBA 13.4.2); the TID's low 32 bits are ours (the kernel owns the top).
void encode_header(uint8_t* mad, const MadRequest& r, uint32_t tid) {
  std::memset(mad, 0, kMadSize);
  mad[0] = 1;  // BaseVersion
  mad[1] = r.mgmt_class;
  mad[2] = 1;  // ClassVersion
  mad[3] = r.method;
  put32(mad + 12, tid);
  put16(mad + 16, r.attr_id);
  put32(mad + 20, r.attr_mod);
  std::memcpy(mad + kMadDataOffset, r.data.data(), kMadDataSize);
  if (r.mgmt_class == kClassSmiDirected) {
    mad[7] = r.dr_hops;               // HopPointer (byte 6) starts at 0
    put16(mad + 32, kPermissiveLid);  // DrSLID, DrDLID: the whole route is directed
    put16(mad + 34, kPermissiveLid);
  }
}

}  // namespace

int mad_cpu() {
  static const int cpu = sched_getcpu();
  return cpu;
}

MadWindow::MadWindow(MadOptions options, size_t window)
    : options_(std::move(options)), window_(std::max<size_t>(1, window)) {
  const ScopedCpuPin pin(mad_cpu());  // umad2sim may start here
  if (umad_init() < 0) throw EnvironmentError("cannot initialise libibumad");
  port_id_ = umad_open_port(options_.ca.empty() ? nullptr : options_.ca.c_str(), options_.port);
  if (port_id_ < 0)
    throw EnvironmentError("cannot open umad port " + (options_.ca.empty() ? std::string("(first HCA)") : options_.ca) +
                           ":" + std::to_string(options_.port) + ": " + std::strerror(-port_id_));
  agent_smi_ = umad_register(port_id_, kClassSmiLid, 1, 0, nullptr);
  agent_dr_ = umad_register(port_id_, kClassSmiDirected, 1, 0, nullptr);
  agent_perf_ = umad_register(port_id_, kClassPerfMgt, 1, 0, nullptr);
  if (agent_smi_ < 0 || agent_dr_ < 0 || agent_perf_ < 0) {
    umad_close_port(port_id_);
    throw EnvironmentError("cannot register MAD agents (SMI, directed SMI, PerfMgt) on the umad port");
  }
  // Distinct TIDs across processes sharing the port make stray responses harmless.
  next_tid_ = static_cast<uint32_t>(getpid()) << 16 | 1;
}

MadWindow::~MadWindow() {
  if (agent_smi_ >= 0) umad_unregister(port_id_, agent_smi_);
  if (agent_dr_ >= 0) umad_unregister(port_id_, agent_dr_);
  if (agent_perf_ >= 0) umad_unregister(port_id_, agent_perf_);
  if (port_id_ >= 0) umad_close_port(port_id_);
}

std::vector<MadResult> MadWindow::run(const std::vector<MadRequest>& requests) {
  const ScopedCpuPin pin(mad_cpu());  // every answer wakes this loop
  std::vector<MadResult> results(requests.size());
  struct InFlight {
    size_t index;
    Clock::time_point deadline;
  };
  std::unordered_map<uint32_t, InFlight> in_flight;
  std::deque<size_t> queue;  // requests waiting for a slot (retries go first)
  for (size_t i = 0; i < requests.size(); ++i) queue.push_back(i);

  std::vector<uint8_t> send_buf(umad_size() + kMadSize), recv_buf(umad_size() + kMadSize);
  const int fd = umad_get_fd(port_id_);
  const int timeout_ms = static_cast<int>(options_.timeout.count());

  auto fail_or_retry = [&](size_t index, const std::string& why) {
    ++stats_.timeouts;
    if (results[index].attempts <= options_.retries) {
      queue.push_front(index);
    } else {
      results[index].error = why;
    }
  };

  while (!queue.empty() || !in_flight.empty()) {
    while (!queue.empty() && in_flight.size() < window_) {
      size_t index = queue.front();
      queue.pop_front();
      const MadRequest& r = requests[index];
      uint32_t tid = next_tid_++;
      if (tid == 0) tid = next_tid_++;
      void* umad = send_buf.data();
      std::memset(umad, 0, send_buf.size());
      const bool directed = r.mgmt_class == kClassSmiDirected;
      const bool smp = directed || r.mgmt_class == kClassSmiLid;
      umad_set_addr(umad, directed ? kPermissiveLid : r.dlid, smp ? 0 : 1, 0, smp ? 0 : static_cast<int>(kQp1Qkey));
      encode_header(static_cast<uint8_t*>(umad_get_mad(umad)), r, tid);
      ++results[index].attempts;
      ++stats_.sent;
      const int agent = directed ? agent_dr_ : smp ? agent_smi_ : agent_perf_;
      if (umad_send(port_id_, agent, umad, kMadSize, timeout_ms, 0) < 0) {
        fail_or_retry(index, std::string("send failed: ") + std::strerror(errno));
        continue;
      }
      in_flight[tid] = {index, Clock::now() + options_.timeout};
    }

    // Wait until a response arrives or the earliest deadline passes.
    auto now = Clock::now();
    auto earliest = now + options_.timeout;
    for (const auto& [tid, f] : in_flight) earliest = std::min(earliest, f.deadline);
    int wait_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(earliest - now).count());
    pollfd pfd{fd, POLLIN, 0};
    int ready = poll(&pfd, 1, std::max(0, wait_ms) + 1);
    if (ready < 0 && errno != EINTR) throw EnvironmentError("poll on umad port failed");

    for (;;) {  // drain everything that has arrived
      int len = kMadSize;
      if (umad_recv(port_id_, recv_buf.data(), &len, 0) < 0) break;
      const uint8_t* mad = static_cast<const uint8_t*>(umad_get_mad(recv_buf.data()));
      uint32_t tid = get32(mad + 12);
      auto it = in_flight.find(tid);
      if (it == in_flight.end()) continue;  // a late answer to a retried attempt
      size_t index = it->second.index;
      in_flight.erase(it);
      if (int st = umad_status(recv_buf.data()); st != 0) {  // the kernel gave up on it
        fail_or_retry(index, st == ETIMEDOUT ? "timeout" : std::strerror(st));
        continue;
      }
      MadResult& res = results[index];
      res.answered = true;
      res.status = get16(mad + 4);
      std::memcpy(res.data.data(), mad + kMadDataOffset, kMadDataSize);
    }

    now = Clock::now();
    for (auto it = in_flight.begin(); it != in_flight.end();) {
      if (it->second.deadline > now) {
        ++it;
        continue;
      }
      size_t index = it->second.index;
      it = in_flight.erase(it);
      fail_or_retry(index, "timeout after " + std::to_string(results[index].attempts) + " tries of " +
                               std::to_string(timeout_ms) + " ms");
    }
  }
  return results;
}

}  // namespace ibburn::topo
