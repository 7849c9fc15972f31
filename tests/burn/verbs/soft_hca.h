#pragma once
// A software HCA behind the VerbsApi table: several single-port "hosts" in one process,
// RC QPs with the RESET->INIT->RTR->RTS state machine, CQs of a fixed depth, memory regions
// with bounds and access checks, RDMA WRITE (with immediate) by memcpy, completions, and
// injected failures. Work requests execute synchronously inside post_send, so tests are
// deterministic; a write-with-immediate that finds no posted receive waits (RNR retry
// forever, as rnr_retry = 7 asks) until the peer posts one, or fails with
// IBV_WC_RNR_RETRY_EXC_ERR when rnr_retry < 7.
// A port may be given a rate (set_rate_limit): writes from or into it then queue and a pacing
// thread executes and completes each one when the port would have carried its bytes, so data
// is really still in flight when the sender stops (the stage-end drain, incast into one port).
//
// One SoftHca may exist at a time per process (the verbs table is plain C function
// pointers, so it reaches its state through a process-wide pointer). Thread-safe: one lock.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rdma/verbs_api.h"

namespace ibburn::testing {

// One GID table entry; an all-zero GID is an empty slot (ibv_query_gid_ex: ENODATA).
struct SoftGid {
  ibv_gid gid{};
  ibv_gid_type type = IBV_GID_TYPE_IB;
};
ibv_gid soft_gid(uint64_t prefix, uint64_t interface_id);
ibv_gid soft_gid_ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d);  // ::ffff:a.b.c.d

struct SoftPort {
  uint16_t lid = 1;
  bool roce = false;  // Ethernet link layer (RoCE port mode): addressed by GID, LID 0
  ibv_mtu active_mtu = IBV_MTU_4096;
  uint8_t active_width = 2;       // PortInfo flags: 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x
  uint8_t active_speed = 128;     // ibv_port_attr encoding: 128 = NDR
  uint64_t gid_interface_id = 0;  // low half of GID 0 (default: derived from the LID)
  // The GID table. Empty: InfiniBand has its port GID alone; RoCE what a ConnectX shows for
  // a netdev with one IPv4 address: 0 v1 fe80::iid, 1 v2 fe80::iid, 2 v1 and 3 v2
  // ::ffff:10.0.0.<lid>.
  std::vector<SoftGid> gids = {};
  uint64_t subnet_prefix = 0xfe80000000000000ull;  // InfiniBand: of the port GID
  bool grh_required = false;                       // the port sets IBV_QPF_GRH_REQUIRED
  std::vector<uint16_t> pkeys = {0xffff};          // P_Key table (default: full member, default partition)
  uint32_t max_msg_sz = 1u << 30;                  // ibv_port_attr.max_msg_sz (ConnectX: 1 GiB)
};

// What happens to one write-with-immediate carrying data into a device (set_write_fault).
enum class WriteFault {
  Drop,    // its bytes never land; the completions still arrive (a lost write)
  Replay,  // the bytes of the previous such write land instead (a stale, replayed write)
};

struct SoftQpStats {
  uint32_t qp_num = 0;
  ibv_qp_state state = IBV_QPS_RESET;
  int max_send_wr = 0;
  int max_outstanding = 0;  // most send WRs ever in flight (posted, not yet retired)
  uint64_t posted = 0;      // send WRs accepted
  uint64_t signalled = 0;   // of which signalled
  uint64_t post_calls = 0;  // ibv_post_send calls (post lists make this < posted)
  ibv_mtu path_mtu = IBV_MTU_256;
  bool global = false;  // RTR used a GRH (RoCE / GID addressing)
  uint16_t dlid = 0;
  // The path attributes the QP was given (INIT: P_Key index; RTR: address vector; RTS: ACK timeout).
  uint16_t pkey_index = 0;
  uint8_t sl = 0;
  uint8_t sgid_index = 0;
  uint8_t traffic_class = 0;
  uint8_t hop_limit = 0;
  uint8_t timeout = 0;
  uint8_t retry_cnt = 0;
};

class SoftHca {
 public:
  SoftHca();
  ~SoftHca();
  SoftHca(const SoftHca&) = delete;
  SoftHca& operator=(const SoftHca&) = delete;

  const rdma::VerbsApi& api() const;
  void add_device(const std::string& name, const SoftPort& port);

  // Injected failures.
  void set_host_dead(const std::string& device, bool dead);          // writes to/from it: retry exceeded
  void set_receives_frozen(const std::string& device, bool frozen);  // hung process: drops post_recv
  void revoke_remote_access(const std::string& device);              // its MRs refuse remote writes
  void set_cq_capacity(const std::string& device, int capacity);     // CQs created later hold this many
  void set_dmabuf_supported(bool supported);
  void set_corrupting(const std::string& device, bool corrupt);  // flips a bit in each write into it
  // The nth (from 1) write-with-immediate with data into `device` suffers `fault`.
  void set_write_fault(const std::string& device, WriteFault fault, uint64_t nth);
  // Writes from and into the device's port take bytes * 8 / gbps ns each, one at a time per
  // direction of the port, taken round-robin from the QPs that wait for it (so senders into one
  // port share it; a port that sat idle may start a write up to 20 ms early, so a late pacing
  // thread catches up); 0 = unlimited (synchronous, the default).
  void set_rate_limit(const std::string& device, double gbps);

  // Async events (context->async_fd). Taking a port down raises IBV_EVENT_PORT_ERR, makes
  // ibv_query_port say DOWN and writes to or from it exhaust their retries; bringing it up
  // raises IBV_EVENT_PORT_ACTIVE. A CQ overrun raises IBV_EVENT_CQ_ERR.
  void set_port_down(const std::string& device, bool down);
  void raise_async_event(const std::string& device, ibv_event_type type);  // port 1 for port events

  std::vector<SoftQpStats> qp_stats(const std::string& device) const;
  int live_objects() const;  // PDs, MRs, CQs, QPs, channels and contexts not yet destroyed

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace ibburn::testing
