#pragma once
// Many MADs in flight at once over libibumad: a window of requests with distinct TIDs,
// responses matched by TID, per-MAD timeouts and retries. A request that is never
// answered is reported in its result; it never stops the others. The only place that
// talks to /dev/umad (or ibsim's umad2sim): live discovery's directed-route SMPs
// (topo/dr_walker.h), the counters sweeps' PerfMgt MADs and the LFT reads' SMPs
// (routing/lft_reader.h) all go through it.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ibburn::topo {

inline constexpr size_t kMadDataOffset = 64;  // GSI and SMP data start here
inline constexpr size_t kMadDataSize = 192;   // to the end of the MAD (an SMP's DR paths included)

inline constexpr uint8_t kClassSmiLid = 0x01;
inline constexpr uint8_t kClassSmiDirected = 0x81;
inline constexpr uint8_t kClassPerfMgt = 0x04;
inline constexpr uint8_t kMethodGet = 0x01;
inline constexpr uint8_t kMethodSet = 0x02;
inline constexpr uint16_t kAttrNodeInfo = 0x0011;
inline constexpr uint16_t kAttrPortInfo = 0x0015;
inline constexpr uint16_t kAttrPortCounters = 0x0012;
inline constexpr uint16_t kAttrPortCountersExt = 0x001D;

struct MadRequest {
  uint8_t mgmt_class = kClassPerfMgt;
  uint8_t method = kMethodGet;
  uint16_t attr_id = 0;
  uint32_t attr_mod = 0;
  uint16_t dlid = 0;  // ignored for directed-route SMPs (sent to the permissive LID)
  // Directed route: the hop count; the initial path (ports of hops 1..n) goes into
  // data[64 + 1 .. 64 + n], i.e. MAD bytes 129.. (IBA 14.2.1.2).
  uint8_t dr_hops = 0;
  std::array<uint8_t, kMadDataSize> data{};
};

struct MadResult {
  bool answered = false;
  uint16_t status = 0;  // MAD status of the response (0 = success)
  int attempts = 0;
  std::string error;  // why not answered
  std::array<uint8_t, kMadDataSize> data{};
  bool ok() const { return answered && (status & 0x7FFF) == 0; }
};

// The local port MADs leave from and how each MAD is waited for: one set (-C/-P/--timeout/
// --retries, app/fabric_options.h) for discovery, the counters sweeps and the LFT reads.
struct MadOptions {
  std::string ca;  // empty: the first HCA
  int port = 0;    // 0: the first active port
  std::chrono::milliseconds timeout{200};
  int retries = 3;  // extra tries after the first
};

// SMPs in flight for discovery and LFT reads. Enough to hide round trips (ibsim answers
// ~40,000 SMPs a second on one core whatever the window beyond 4-8); more only risks drops:
// ibsim drops an answer when more than 10 wait unread for a client (net.unix.max_dgram_qlen),
// and opensm itself keeps 4 on the wire so as not to flood switch management processors.
inline constexpr size_t kSmpWindow = 8;

// The CPU this process's MAD loops run on: the caller's at the first call. Under ibsim one
// thread of umad2sim receives every answer, and it keeps the CPUs of the thread that was
// running when umad2sim started (at the first look for a device or port): started on this
// CPU, and each loop pinned to it, every answer's hand-over stays on one CPU instead of being
// a cross-CPU wake-up, which was half of discovery's time on the 2-CPU VM (docs/benchmarks.md,
// "Discovery"). Elsewhere only the loop is pinned, which costs nothing.
int mad_cpu();

class MadWindow {
 public:
  // Opens the port and registers SMI (LID routed and directed route) and PerfMgt agents. Throws
  // EnvironmentError when the port cannot be opened.
  // `window`: MADs in flight at once.
  MadWindow(MadOptions options, size_t window);
  ~MadWindow();
  MadWindow(const MadWindow&) = delete;
  MadWindow& operator=(const MadWindow&) = delete;

  // Sends all requests, at most `window` in flight; results in request order.
  std::vector<MadResult> run(const std::vector<MadRequest>& requests);

  struct Stats {
    size_t sent = 0;      // MADs sent, retries included
    size_t timeouts = 0;  // attempts that timed out (and were retried or given up)
  };
  const Stats& stats() const { return stats_; }

 private:
  MadOptions options_;
  size_t window_;
  int port_id_ = -1;
  int agent_smi_ = -1;
  int agent_dr_ = -1;
  int agent_perf_ = -1;
  uint32_t next_tid_ = 1;
  Stats stats_;
};

}  // namespace ibburn::topo
