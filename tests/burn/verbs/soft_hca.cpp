#include "tests/burn/verbs/soft_hca.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace ibburn::testing {

using rdma::VerbsApi;

namespace {

using Clock = std::chrono::steady_clock;

struct Device;
struct Qp;

struct Mr {
  ibv_mr mr{};
  int access = 0;
};

struct Channel {
  ibv_comp_channel ch{};
  std::deque<ibv_cq*> events;
};

struct Cq {
  ibv_cq cq{};
  size_t capacity = 0;
  std::deque<ibv_wc> entries;
  bool overrun = false;
  bool armed = false;
  Channel* channel = nullptr;
};

struct SendWr {
  uint64_t wr_id = 0;
  bool signalled = false;
  ibv_wr_opcode opcode = IBV_WR_RDMA_WRITE;
  ibv_sge sge{};
  uint64_t remote_addr = 0;
  uint32_t rkey = 0;
  uint32_t imm = 0;
  bool started = false;     // rate-limited: crossing the port(s) now
  Clock::time_point due{};  // and when it has crossed them
};

struct Qp {
  ibv_qp qp{};
  Device* device = nullptr;
  ibv_qp_cap cap{};
  int access = 0;
  ibv_mtu path_mtu = IBV_MTU_256;
  uint32_t dest_qpn = 0;
  bool global = false;
  uint16_t dlid = 0;
  ibv_gid dgid{};
  uint8_t sgid_index = 0;
  int rnr_retry = 0;
  std::deque<uint64_t> receives;  // posted receive wr_ids
  std::deque<SendWr> unretired;   // posted, not yet retired by a polled completion
  std::deque<SendWr> stalled;     // waiting for the peer to post a receive (RNR)
  std::deque<SendWr> paced;       // rate-limited: the head crossing the port(s), the rest waiting
  SoftQpStats stats;
};

struct Device {
  ibv_device dev{};
  ibv_context ctx{};
  SoftPort port;
  bool dead = false;
  bool frozen = false;
  bool revoked = false;
  bool corrupting = false;
  int cq_capacity = 0;
  // Async events: ctx.async_fd is a non-blocking eventfd counting the queued events.
  bool port_down = false;
  std::deque<ibv_async_event> async_events;
  Device() { ctx.async_fd = ::eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC); }
  ~Device() { ::close(ctx.async_fd); }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  void raise(const ibv_async_event& e) {
    async_events.push_back(e);
    const uint64_t one = 1;
    (void)!::write(ctx.async_fd, &one, sizeof one);
  }
  std::optional<WriteFault> fault;
  uint64_t fault_at = 0;                   // which write-with-immediate into this device (from 1)
  uint64_t imm_writes_in = 0;              // writes-with-immediate with data into this device so far
  std::vector<uint8_t> previous;           // the last such write's bytes (for WriteFault::Replay)
  double gbps = 0;                         // 0 = unlimited
  Clock::time_point tx_free{}, rx_free{};  // when each direction of the port is next idle
};

}  // namespace

struct SoftHca::State {
  mutable std::mutex lock;
  std::vector<std::unique_ptr<Device>> devices;
  std::vector<ibv_device*> list;  // NULL-terminated copy handed out by get_device_list
  std::map<ibv_pd*, std::unique_ptr<ibv_pd>> pds;
  std::map<ibv_mr*, std::unique_ptr<Mr>> mrs;
  std::map<ibv_cq*, std::unique_ptr<Cq>> cqs;
  std::map<ibv_qp*, std::unique_ptr<Qp>> qps;
  std::map<ibv_comp_channel*, std::unique_ptr<Channel>> channels;
  int open_contexts = 0;
  uint32_t next_qpn = 0x100;
  uint32_t next_key = 0x1000;
  bool dmabuf = true;
  std::condition_variable paced_cv;  // a write was paced, or the HCA goes away
  std::thread pacer;                 // started by the first rate limit
  bool quit = false;

  Device* device_of(ibv_context* c) {
    for (auto& d : devices) {
      if (&d->ctx == c) return d.get();
    }
    return nullptr;
  }
  Device* device_named(const std::string& name) {
    for (auto& d : devices) {
      if (name == d->dev.name) return d.get();
    }
    throw std::invalid_argument("soft HCA: no device " + name);
  }
  Cq* cq_of(ibv_cq* c) { return cqs.at(c).get(); }

  void push(ibv_cq* cq, const ibv_wc& wc) {
    Cq* c = cq_of(cq);
    if (c->entries.size() >= c->capacity) {
      if (!c->overrun) {
        ibv_async_event e{};
        e.event_type = IBV_EVENT_CQ_ERR;
        e.element.cq = cq;
        device_of(cq->context)->raise(e);
      }
      c->overrun = true;  // the CQ is unusable after this
      return;
    }
    c->entries.push_back(wc);
    if (c->armed && c->channel != nullptr) {
      c->armed = false;
      c->channel->events.push_back(cq);
      const uint64_t one = 1;
      (void)!::write(c->channel->ch.fd, &one, sizeof one);
    }
  }

  void complete_send(Qp& q, const SendWr& w, ibv_wc_status status) {
    if (status == IBV_WC_SUCCESS && !w.signalled) return;
    ibv_wc wc{};
    wc.wr_id = w.wr_id;
    wc.status = status;
    wc.opcode = IBV_WC_RDMA_WRITE;
    wc.qp_num = q.qp.qp_num;
    wc.byte_len = w.sge.length;
    push(q.qp.send_cq, wc);
    if (status != IBV_WC_SUCCESS) q.qp.state = q.stats.state = IBV_QPS_ERR;
  }

  // InfiniBand delivers by LID. RoCE by GID, and only between GIDs of one type: a RoCE v1
  // frame never reaches a v2 address (nor the other way).
  Qp* find_peer(const Qp& q) {
    for (auto& [ptr, p] : qps) {
      const SoftPort& port = p->device->port;
      bool match = false;
      if (!port.roce) {
        match = !q.device->port.roce && port.lid == q.dlid;
      } else if (q.global && q.device->port.roce) {
        const ibv_gid_type type = q.device->port.gids[q.sgid_index].type;
        for (const SoftGid& g : port.gids)
          match = match || (g.type == type && std::memcmp(&q.dgid, &g.gid, sizeof g.gid) == 0);
      }
      if (match && p->qp.qp_num == q.dest_qpn) return p.get();
    }
    return nullptr;
  }

  Mr* mr_by_lkey(ibv_pd* pd, uint32_t lkey) {
    for (auto& [ptr, m] : mrs) {
      if (m->mr.pd == pd && m->mr.lkey == lkey) return m.get();
    }
    return nullptr;
  }
  Mr* mr_by_rkey(ibv_pd* pd, uint32_t rkey) {
    for (auto& [ptr, m] : mrs) {
      if (m->mr.pd == pd && m->mr.rkey == rkey) return m.get();
    }
    return nullptr;
  }
  static bool covers(const ibv_mr& mr, uint64_t addr, uint64_t len) {
    const auto base = reinterpret_cast<uint64_t>(mr.addr);
    return addr >= base && addr + len <= base + mr.length;
  }

  // Executes one write. Returns false when it must wait for a receive (RNR, retry forever).
  bool execute(Qp& q, const SendWr& w) {
    if (q.qp.state == IBV_QPS_ERR) {
      complete_send(q, w, IBV_WC_WR_FLUSH_ERR);
      return true;
    }
    Mr* local = w.sge.length == 0 ? nullptr : mr_by_lkey(q.qp.pd, w.sge.lkey);
    if (w.sge.length != 0 && (local == nullptr || !covers(local->mr, w.sge.addr, w.sge.length))) {
      complete_send(q, w, IBV_WC_LOC_PROT_ERR);
      return true;
    }
    Qp* peer = find_peer(q);
    if (q.device->dead || q.device->port_down || peer == nullptr || peer->device->dead || peer->device->port_down ||
        (peer->qp.state != IBV_QPS_RTR && peer->qp.state != IBV_QPS_RTS)) {
      complete_send(q, w, IBV_WC_RETRY_EXC_ERR);
      return true;
    }
    Mr* remote = mr_by_rkey(peer->qp.pd, w.rkey);
    if (remote == nullptr || peer->device->revoked || !(remote->access & IBV_ACCESS_REMOTE_WRITE) ||
        !(peer->access & IBV_ACCESS_REMOTE_WRITE) || !covers(remote->mr, w.remote_addr, w.sge.length)) {
      complete_send(q, w, IBV_WC_REM_ACCESS_ERR);
      return true;
    }
    const bool imm = w.opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
    if (imm && peer->receives.empty()) {
      if (q.rnr_retry == 7) return false;
      complete_send(q, w, IBV_WC_RNR_RETRY_EXC_ERR);
      return true;
    }
    land(*peer->device, w, imm);
    if (peer->device->corrupting && w.sge.length > 0) {
      reinterpret_cast<uint8_t*>(w.remote_addr)[w.sge.length / 2] ^= 0x10;
    }
    if (imm) {
      ibv_wc wc{};
      wc.wr_id = peer->receives.front();
      peer->receives.pop_front();
      wc.status = IBV_WC_SUCCESS;
      wc.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
      wc.wc_flags = IBV_WC_WITH_IMM;
      wc.imm_data = htobe32(w.imm);
      wc.byte_len = w.sge.length;
      wc.qp_num = peer->qp.qp_num;
      push(peer->qp.recv_cq, wc);
    }
    complete_send(q, w, IBV_WC_SUCCESS);
    return true;
  }

  // Places a write's bytes, or (an injected fault) drops it or lands the previous write's bytes.
  static void land(Device& into, const SendWr& w, bool imm) {
    auto* dst = reinterpret_cast<uint8_t*>(w.remote_addr);
    const auto* src = reinterpret_cast<const uint8_t*>(w.sge.addr);
    const bool counted = imm && w.sge.length > 0 && into.fault.has_value();
    const bool hit = counted && ++into.imm_writes_in == into.fault_at;
    if (hit && *into.fault == WriteFault::Drop) return;
    if (hit && *into.fault == WriteFault::Replay && into.previous.size() == w.sge.length) {
      std::memcpy(dst, into.previous.data(), w.sge.length);
    } else if (w.sge.length > 0) {  // a zero-byte write (the end marker) may carry no buffer at all
      std::memmove(dst, src, w.sge.length);
    }
    if (counted) into.previous.assign(src, src + w.sge.length);
  }

  // Whether a write on this QP crosses a rate-limited port (no peer: it fails at once).
  bool paced(const Qp& q) {
    const Qp* peer = find_peer(q);
    return peer != nullptr && (q.device->gbps > 0 || peer->device->gbps > 0);
  }

  // Starts the write at the head of q.paced when the limited port(s) it crosses are idle: it
  // then occupies them for bytes * 8 / rate and lands when that time is up. False when they
  // are busy; `idle` then says until when.
  bool claim(Qp& q, SendWr& w, Clock::time_point now, Clock::time_point& idle) {
    w.started = true;
    w.due = now;
    Qp* peer = find_peer(q);
    if (peer == nullptr) return true;
    Device& from = *q.device;
    Device& to = *peer->device;
    if (from.gbps <= 0 && to.gbps <= 0) return true;
    Clock::time_point free{};
    if (from.gbps > 0) free = std::max(free, from.tx_free);
    if (to.gbps > 0) free = std::max(free, to.rx_free);
    if (free > now) {
      w.started = false;
      idle = free;
      return false;
    }
    const double gbps = from.gbps <= 0 ? to.gbps : to.gbps <= 0 ? from.gbps : std::min(from.gbps, to.gbps);
    // Back to back after the previous write, so a late wake-up (a loaded machine) catches up;
    // after the port sat idle, from at most 20 ms ago.
    const auto start = std::max(free, now - std::chrono::milliseconds(20));
    w.due = start + std::chrono::nanoseconds(static_cast<int64_t>(w.sge.length * 8.0 / gbps));
    if (from.gbps > 0) from.tx_free = w.due;
    if (to.gbps > 0) to.rx_free = w.due;
    return true;
  }

  // The pacing thread: lands each paced write when its time is up, in order per QP, and
  // starts the next one round-robin over the QPs, so senders into one port share it.
  void run_pacer() {
    std::unique_lock l(lock);
    size_t turn = 0;
    while (!quit) {
      const auto now = Clock::now();
      auto next = Clock::time_point::max();
      std::vector<Qp*> order;
      for (auto& [ptr, q] : qps) order.push_back(q.get());
      for (size_t i = 0; i < order.size(); ++i) {
        const size_t at = (turn + i) % order.size();
        Qp& q = *order[at];
        while (!q.paced.empty() && q.paced.front().started && q.paced.front().due <= now) {
          const SendWr w = q.paced.front();
          q.paced.pop_front();
          if (!q.stalled.empty() || !execute(q, w)) q.stalled.push_back(w);
        }
        if (q.paced.empty()) continue;
        SendWr& head = q.paced.front();
        Clock::time_point idle{};
        if (!head.started && claim(q, head, now, idle)) turn = at + 1;
        next = std::min(next, head.started ? head.due : idle);
      }
      if (next <= now) continue;
      if (next == Clock::time_point::max()) {
        paced_cv.wait(l);
      } else {
        paced_cv.wait_until(l, next);
      }
    }
  }

  // Runs the stalled writes of every QP whose peer may now have receives.
  void resume_stalled() {
    for (auto& [ptr, q] : qps) {
      while (!q->stalled.empty() && q->qp.state == IBV_QPS_RTS) {
        if (!execute(*q, q->stalled.front())) break;
        q->stalled.pop_front();
      }
    }
  }
};

namespace {

SoftHca::State* g_state = nullptr;

SoftHca::State& st() { return *g_state; }

ibv_device** s_get_device_list(int* n) {
  std::lock_guard l(st().lock);
  st().list.clear();
  for (auto& d : st().devices) st().list.push_back(&d->dev);
  if (n != nullptr) *n = static_cast<int>(st().list.size());
  st().list.push_back(nullptr);
  return st().list.data();
}
void s_free_device_list(ibv_device**) {}
const char* s_get_device_name(ibv_device* d) { return d->name; }

ibv_context* s_open_device(ibv_device* d) {
  std::lock_guard l(st().lock);
  for (auto& dev : st().devices) {
    if (&dev->dev == d) {
      ++st().open_contexts;
      dev->ctx.device = d;
      return &dev->ctx;
    }
  }
  errno = ENODEV;
  return nullptr;
}
int s_close_device(ibv_context*) {
  std::lock_guard l(st().lock);
  --st().open_contexts;
  return 0;
}
int s_query_device(ibv_context*, ibv_device_attr* a) {
  *a = {};
  std::strcpy(a->fw_ver, "28.39.1002");
  a->max_qp = 1 << 16;
  a->max_qp_wr = 32768;
  a->max_sge = 30;
  a->max_cq = 1 << 16;
  a->max_cqe = 4194303;
  a->max_mr_size = UINT64_MAX;
  a->phys_port_cnt = 1;
  return 0;
}
int s_query_port(ibv_context* c, uint8_t port, ibv_port_attr* a) {
  std::lock_guard l(st().lock);
  Device* d = st().device_of(c);
  if (d == nullptr || port != 1) return EINVAL;
  *a = {};
  a->state = d->port_down ? IBV_PORT_DOWN : IBV_PORT_ACTIVE;
  a->max_mtu = IBV_MTU_4096;
  a->active_mtu = d->port.active_mtu;
  a->lid = d->port.roce ? 0 : d->port.lid;
  a->link_layer = d->port.roce ? IBV_LINK_LAYER_ETHERNET : IBV_LINK_LAYER_INFINIBAND;
  a->active_width = d->port.active_width;
  a->active_speed = d->port.active_speed;
  a->gid_tbl_len = static_cast<int>(d->port.gids.size());
  a->pkey_tbl_len = static_cast<uint16_t>(d->port.pkeys.size());
  a->flags = d->port.grh_required ? IBV_QPF_GRH_REQUIRED : 0;
  a->phys_state = d->port_down ? 3 : 5;  // Disabled : LinkUp
  a->max_msg_sz = d->port.max_msg_sz;
  return 0;
}
int s_query_gid_ex(ibv_context* c, uint32_t port, uint32_t index, ibv_gid_entry* entry, uint32_t flags) {
  std::lock_guard l(st().lock);
  Device* d = st().device_of(c);
  if (d == nullptr || port != 1 || flags != 0 || index >= d->port.gids.size()) return EINVAL;
  const SoftGid& g = d->port.gids[index];
  static constexpr ibv_gid kEmpty{};
  if (std::memcmp(&g.gid, &kEmpty, sizeof kEmpty) == 0) return ENODATA;
  *entry = {};
  entry->gid = g.gid;
  entry->gid_index = index;
  entry->port_num = port;
  entry->gid_type = g.type;
  return 0;
}
int s_query_pkey(ibv_context* c, uint8_t port, int index, __be16* pkey) {
  std::lock_guard l(st().lock);
  Device* d = st().device_of(c);
  if (d == nullptr || port != 1 || index < 0 || static_cast<size_t>(index) >= d->port.pkeys.size()) return EINVAL;
  *pkey = htobe16(d->port.pkeys[static_cast<size_t>(index)]);
  return 0;
}

ibv_pd* s_alloc_pd(ibv_context* c) {
  std::lock_guard l(st().lock);
  auto pd = std::make_unique<ibv_pd>();
  pd->context = c;
  ibv_pd* raw = pd.get();
  st().pds[raw] = std::move(pd);
  return raw;
}
int s_dealloc_pd(ibv_pd* pd) {
  std::lock_guard l(st().lock);
  for (auto& [p, m] : st().mrs) {
    if (m->mr.pd == pd) return EBUSY;
  }
  st().pds.erase(pd);
  return 0;
}
ibv_mr* make_mr(ibv_pd* pd, void* addr, size_t length, int access) {
  auto m = std::make_unique<Mr>();
  m->mr.context = pd->context;
  m->mr.pd = pd;
  m->mr.addr = addr;
  m->mr.length = length;
  m->mr.lkey = st().next_key++;
  m->mr.rkey = st().next_key++;
  m->access = access;
  ibv_mr* raw = &m->mr;
  st().mrs[raw] = std::move(m);
  return raw;
}
ibv_mr* s_reg_mr(ibv_pd* pd, void* addr, size_t length, int access) {
  std::lock_guard l(st().lock);
  if (addr == nullptr || length == 0) {
    errno = EINVAL;
    return nullptr;
  }
  return make_mr(pd, addr, length, access);
}
// The soft HCA treats the dma-buf's iova as an address in this process (tests pass host
// memory standing in for device memory); fd validity follows the kernel's probe rules.
ibv_mr* s_reg_dmabuf_mr(ibv_pd* pd, uint64_t /*offset*/, size_t length, uint64_t iova, int fd, int access) {
  std::lock_guard l(st().lock);
  if (!st().dmabuf) {
    errno = EOPNOTSUPP;
    return nullptr;
  }
  if (fd < 0) {
    errno = EBADF;
    return nullptr;
  }
  return make_mr(pd, reinterpret_cast<void*>(iova), length, access);
}
int s_dereg_mr(ibv_mr* mr) {
  std::lock_guard l(st().lock);
  return st().mrs.erase(mr) == 1 ? 0 : EINVAL;
}

ibv_comp_channel* s_create_comp_channel(ibv_context* c) {
  std::lock_guard l(st().lock);
  auto ch = std::make_unique<Channel>();
  ch->ch.context = c;
  ch->ch.fd = ::eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC);
  if (ch->ch.fd < 0) return nullptr;
  ibv_comp_channel* raw = &ch->ch;
  st().channels[raw] = std::move(ch);
  return raw;
}
int s_destroy_comp_channel(ibv_comp_channel* ch) {
  std::lock_guard l(st().lock);
  ::close(ch->fd);
  st().channels.erase(ch);
  return 0;
}
ibv_cq* s_create_cq(ibv_context* c, int cqe, void* cq_context, ibv_comp_channel* ch, int) {
  std::lock_guard l(st().lock);
  Device* d = st().device_of(c);
  if (cqe <= 0) {
    errno = EINVAL;
    return nullptr;
  }
  auto q = std::make_unique<Cq>();
  q->cq.context = c;
  q->cq.cq_context = cq_context;
  q->cq.channel = ch;
  q->cq.cqe = cqe;
  q->capacity = d != nullptr && d->cq_capacity > 0 ? d->cq_capacity : cqe;
  q->channel = ch != nullptr ? st().channels.at(ch).get() : nullptr;
  ibv_cq* raw = &q->cq;
  st().cqs[raw] = std::move(q);
  return raw;
}
int s_destroy_cq(ibv_cq* cq) {
  std::lock_guard l(st().lock);
  for (auto& [p, q] : st().qps) {
    if (q->qp.send_cq == cq || q->qp.recv_cq == cq) return EBUSY;
  }
  st().cqs.erase(cq);
  return 0;
}
int s_req_notify_cq(ibv_cq* cq, int) {
  std::lock_guard l(st().lock);
  st().cq_of(cq)->armed = true;
  return 0;
}
int s_get_cq_event(ibv_comp_channel* ch, ibv_cq** cq, void** cq_context) {
  uint64_t value = 0;
  if (::read(ch->fd, &value, sizeof value) != sizeof value) return -1;
  std::lock_guard l(st().lock);
  Channel& c = *st().channels.at(ch);
  if (c.events.empty()) return -1;
  *cq = c.events.front();
  c.events.pop_front();
  *cq_context = (*cq)->cq_context;
  return 0;
}
void s_ack_cq_events(ibv_cq*, unsigned int) {}

int s_poll_cq(ibv_cq* cq, int n, ibv_wc* wc) {
  std::lock_guard l(st().lock);
  Cq* c = st().cq_of(cq);
  if (c->overrun) return -1;
  int got = 0;
  while (got < n && !c->entries.empty()) {
    wc[got] = c->entries.front();
    c->entries.pop_front();
    // Polling a send completion frees its send-queue slots and every earlier one's.
    for (auto& [p, q] : st().qps) {
      if (q->qp.send_cq != cq || q->qp.qp_num != wc[got].qp_num) continue;
      if (wc[got].opcode != IBV_WC_RDMA_WRITE) continue;
      const uint64_t id = wc[got].wr_id;
      while (!q->unretired.empty()) {
        const bool last = q->unretired.front().wr_id == id;
        q->unretired.pop_front();
        if (last) break;
      }
    }
    ++got;
  }
  return got;
}

ibv_qp* s_create_qp(ibv_pd* pd, ibv_qp_init_attr* attr) {
  std::lock_guard l(st().lock);
  if (attr->qp_type != IBV_QPT_RC || attr->send_cq == nullptr || attr->recv_cq == nullptr ||
      attr->cap.max_send_wr == 0 || attr->cap.max_send_wr > 32768) {
    errno = EINVAL;
    return nullptr;
  }
  auto q = std::make_unique<Qp>();
  q->qp.context = pd->context;
  q->qp.pd = pd;
  q->qp.send_cq = attr->send_cq;
  q->qp.recv_cq = attr->recv_cq;
  q->qp.qp_type = IBV_QPT_RC;
  q->qp.qp_num = st().next_qpn++;
  q->qp.state = IBV_QPS_RESET;
  q->device = st().device_of(pd->context);
  q->cap = attr->cap;
  q->stats.qp_num = q->qp.qp_num;
  q->stats.max_send_wr = static_cast<int>(attr->cap.max_send_wr);
  ibv_qp* raw = &q->qp;
  st().qps[raw] = std::move(q);
  return raw;
}

int s_modify_qp(ibv_qp* qp, ibv_qp_attr* a, int mask) {
  std::lock_guard l(st().lock);
  Qp& q = *st().qps.at(qp);
  if (!(mask & IBV_QP_STATE)) return EINVAL;
  const auto has = [mask](int bits) { return (mask & bits) == bits; };
  switch (a->qp_state) {
    case IBV_QPS_INIT:
      if (q.qp.state != IBV_QPS_RESET || !has(IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) ||
          a->port_num != 1 || a->pkey_index >= q.device->port.pkeys.size())
        return EINVAL;
      q.access = a->qp_access_flags;
      q.stats.pkey_index = a->pkey_index;
      break;
    case IBV_QPS_RTR:
      if (q.qp.state != IBV_QPS_INIT ||
          !has(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
               IBV_QP_MIN_RNR_TIMER) ||
          a->path_mtu > q.device->port.active_mtu || a->ah_attr.port_num != 1)
        return EINVAL;
      q.path_mtu = a->path_mtu;
      q.dest_qpn = a->dest_qp_num;
      q.global = a->ah_attr.is_global != 0;
      q.dlid = a->ah_attr.dlid;
      q.dgid = a->ah_attr.grh.dgid;
      q.sgid_index = a->ah_attr.grh.sgid_index;
      // RoCE has no LIDs: a path without a GRH cannot reach anything; nor can one whose source
      // GID is not in the table.
      if ((q.device->port.roce || q.device->port.grh_required) && !q.global) return EINVAL;
      if (q.global && q.sgid_index >= q.device->port.gids.size()) return EINVAL;
      q.stats.sl = a->ah_attr.sl;
      q.stats.sgid_index = q.global ? a->ah_attr.grh.sgid_index : 0;
      q.stats.traffic_class = q.global ? a->ah_attr.grh.traffic_class : 0;
      q.stats.hop_limit = q.global ? a->ah_attr.grh.hop_limit : 0;
      break;
    case IBV_QPS_RTS:
      if (q.qp.state != IBV_QPS_RTR ||
          !has(IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
        return EINVAL;
      q.rnr_retry = a->rnr_retry;
      q.stats.timeout = a->timeout;
      q.stats.retry_cnt = a->retry_cnt;
      break;
    case IBV_QPS_ERR:
    case IBV_QPS_RESET: break;
    default: return EINVAL;
  }
  q.qp.state = q.stats.state = a->qp_state;
  q.stats.path_mtu = q.path_mtu;
  q.stats.global = q.global;
  q.stats.dlid = q.dlid;
  return 0;
}

int s_destroy_qp(ibv_qp* qp) {
  std::lock_guard l(st().lock);
  auto it = st().qps.find(qp);
  if (it == st().qps.end()) return EINVAL;
  const uint32_t qpn = qp->qp_num;
  st().qps.erase(it);
  // Writes waiting for this QP's receives now find no peer: the requester's retries run out.
  for (auto& [p, q] : st().qps) {
    if (q->dest_qpn != qpn || q->stalled.empty()) continue;
    while (!q->stalled.empty()) {
      st().complete_send(*q, q->stalled.front(),
                         q->qp.state == IBV_QPS_ERR ? IBV_WC_WR_FLUSH_ERR : IBV_WC_RETRY_EXC_ERR);
      q->stalled.pop_front();
    }
  }
  return 0;
}

int s_post_send(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
  std::lock_guard l(st().lock);
  Qp& q = *st().qps.at(qp);
  ++q.stats.post_calls;
  for (; wr != nullptr; wr = wr->next) {
    if ((q.qp.state != IBV_QPS_RTS && q.qp.state != IBV_QPS_ERR) || wr->num_sge > 1 ||
        (wr->opcode != IBV_WR_RDMA_WRITE && wr->opcode != IBV_WR_RDMA_WRITE_WITH_IMM)) {
      *bad = wr;
      return EINVAL;
    }
    if (q.unretired.size() >= q.cap.max_send_wr) {
      *bad = wr;
      return ENOMEM;
    }
    SendWr w;
    w.wr_id = wr->wr_id;
    w.signalled = (wr->send_flags & IBV_SEND_SIGNALED) != 0;
    w.opcode = wr->opcode;
    if (wr->num_sge == 1) w.sge = wr->sg_list[0];  // none: a zero-byte write
    w.remote_addr = wr->wr.rdma.remote_addr;
    w.rkey = wr->wr.rdma.rkey;
    w.imm = be32toh(wr->imm_data);
    q.unretired.push_back(w);
    ++q.stats.posted;
    q.stats.signalled += w.signalled ? 1 : 0;
    q.stats.max_outstanding = std::max(q.stats.max_outstanding, static_cast<int>(q.unretired.size()));
    if (q.qp.state == IBV_QPS_ERR) {
      st().complete_send(q, w, IBV_WC_WR_FLUSH_ERR);
      continue;
    }
    if (!q.paced.empty() || st().paced(q)) {
      q.paced.push_back(w);
      st().paced_cv.notify_all();
    } else if (!q.stalled.empty() || !st().execute(q, w)) {
      q.stalled.push_back(w);
    }
  }
  return 0;
}

int s_post_recv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad) {
  std::lock_guard l(st().lock);
  Qp& q = *st().qps.at(qp);
  if (q.qp.state == IBV_QPS_RESET) {
    *bad = wr;
    return EINVAL;
  }
  if (q.device->frozen) return 0;  // the process "hangs": its receives never reach the HCA
  for (; wr != nullptr; wr = wr->next) {
    if (q.receives.size() >= q.cap.max_recv_wr) {
      *bad = wr;
      return ENOMEM;
    }
    q.receives.push_back(wr->wr_id);
  }
  st().resume_stalled();
  return 0;
}

int s_get_async_event(ibv_context* c, ibv_async_event* event) {
  uint64_t value = 0;
  if (::read(c->async_fd, &value, sizeof value) != sizeof value) return -1;  // EAGAIN: none queued
  std::lock_guard l(st().lock);
  Device* d = st().device_of(c);
  if (d == nullptr || d->async_events.empty()) return -1;
  *event = d->async_events.front();
  d->async_events.pop_front();
  return 0;
}
void s_ack_async_event(ibv_async_event*) {}

const rdma::VerbsApi kSoftApi{
    .get_device_list = s_get_device_list,
    .free_device_list = s_free_device_list,
    .get_device_name = s_get_device_name,
    .open_device = s_open_device,
    .close_device = s_close_device,
    .query_device = s_query_device,
    .query_port = s_query_port,
    .query_gid_ex = s_query_gid_ex,
    .query_pkey = s_query_pkey,
    .alloc_pd = s_alloc_pd,
    .dealloc_pd = s_dealloc_pd,
    .reg_mr = s_reg_mr,
    .reg_dmabuf_mr = s_reg_dmabuf_mr,
    .dereg_mr = s_dereg_mr,
    .create_comp_channel = s_create_comp_channel,
    .destroy_comp_channel = s_destroy_comp_channel,
    .create_cq = s_create_cq,
    .destroy_cq = s_destroy_cq,
    .req_notify_cq = s_req_notify_cq,
    .get_cq_event = s_get_cq_event,
    .ack_cq_events = s_ack_cq_events,
    .poll_cq = s_poll_cq,
    .create_qp = s_create_qp,
    .modify_qp = s_modify_qp,
    .destroy_qp = s_destroy_qp,
    .post_send = s_post_send,
    .post_recv = s_post_recv,
    .get_async_event = s_get_async_event,
    .ack_async_event = s_ack_async_event,
};

}  // namespace

ibv_gid soft_gid(uint64_t prefix, uint64_t interface_id) {
  ibv_gid g{};
  g.global.subnet_prefix = htobe64(prefix);
  g.global.interface_id = htobe64(interface_id);
  return g;
}

ibv_gid soft_gid_ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  ibv_gid g{};
  g.raw[10] = g.raw[11] = 0xff;
  g.raw[12] = a;
  g.raw[13] = b;
  g.raw[14] = c;
  g.raw[15] = d;
  return g;
}

SoftHca::SoftHca() : state_(std::make_unique<State>()) {
  if (g_state != nullptr) throw std::logic_error("only one SoftHca may exist at a time");
  g_state = state_.get();
}

SoftHca::~SoftHca() {
  {
    std::lock_guard l(state_->lock);
    state_->quit = true;
  }
  state_->paced_cv.notify_all();
  if (state_->pacer.joinable()) state_->pacer.join();
  g_state = nullptr;
}

const rdma::VerbsApi& SoftHca::api() const { return kSoftApi; }

void SoftHca::add_device(const std::string& name, const SoftPort& port) {
  std::lock_guard l(state_->lock);
  auto d = std::make_unique<Device>();
  std::snprintf(d->dev.name, sizeof d->dev.name, "%s", name.c_str());
  d->dev.node_type = IBV_NODE_CA;
  d->dev.transport_type = IBV_TRANSPORT_IB;
  d->port = port;
  if (d->port.gids.empty()) {
    const uint64_t iid = port.gid_interface_id != 0 ? port.gid_interface_id : 0x0002c90300000000ull + port.lid;
    if (!port.roce) {
      d->port.gids = {{soft_gid(port.subnet_prefix, iid), IBV_GID_TYPE_IB}};
    } else {
      const ibv_gid link_local = soft_gid(0xfe80000000000000ull, iid);
      const ibv_gid v4 = soft_gid_ipv4(10, 0, static_cast<uint8_t>(port.lid >> 8), static_cast<uint8_t>(port.lid));
      d->port.gids = {{link_local, IBV_GID_TYPE_ROCE_V1},
                      {link_local, IBV_GID_TYPE_ROCE_V2},
                      {v4, IBV_GID_TYPE_ROCE_V1},
                      {v4, IBV_GID_TYPE_ROCE_V2}};
    }
  }
  state_->devices.push_back(std::move(d));
}

void SoftHca::set_host_dead(const std::string& device, bool dead) {
  std::lock_guard l(state_->lock);
  state_->device_named(device)->dead = dead;
}
void SoftHca::set_receives_frozen(const std::string& device, bool frozen) {
  std::lock_guard l(state_->lock);
  state_->device_named(device)->frozen = frozen;
}
void SoftHca::revoke_remote_access(const std::string& device) {
  std::lock_guard l(state_->lock);
  state_->device_named(device)->revoked = true;
}
void SoftHca::set_cq_capacity(const std::string& device, int capacity) {
  std::lock_guard l(state_->lock);
  state_->device_named(device)->cq_capacity = capacity;
}
void SoftHca::set_dmabuf_supported(bool supported) {
  std::lock_guard l(state_->lock);
  state_->dmabuf = supported;
}

void SoftHca::set_corrupting(const std::string& device, bool corrupt) {
  std::lock_guard l(state_->lock);
  state_->device_named(device)->corrupting = corrupt;
}

void SoftHca::set_port_down(const std::string& device, bool down) {
  std::lock_guard l(state_->lock);
  Device* d = state_->device_named(device);
  if (d->port_down == down) return;
  d->port_down = down;
  ibv_async_event e{};
  e.event_type = down ? IBV_EVENT_PORT_ERR : IBV_EVENT_PORT_ACTIVE;
  e.element.port_num = 1;
  d->raise(e);
}

void SoftHca::raise_async_event(const std::string& device, ibv_event_type type) {
  std::lock_guard l(state_->lock);
  ibv_async_event e{};
  e.event_type = type;
  e.element.port_num = 1;
  state_->device_named(device)->raise(e);
}

void SoftHca::set_write_fault(const std::string& device, WriteFault fault, uint64_t nth) {
  std::lock_guard l(state_->lock);
  Device* d = state_->device_named(device);
  d->fault = fault;
  d->fault_at = nth;
  d->imm_writes_in = 0;
}

void SoftHca::set_rate_limit(const std::string& device, double gbps) {
  std::lock_guard l(state_->lock);
  state_->device_named(device)->gbps = gbps;
  if (gbps > 0 && !state_->pacer.joinable()) state_->pacer = std::thread([s = state_.get()] { s->run_pacer(); });
}

std::vector<SoftQpStats> SoftHca::qp_stats(const std::string& device) const {
  std::lock_guard l(state_->lock);
  Device* d = state_->device_named(device);
  std::vector<SoftQpStats> out;
  for (auto& [p, q] : state_->qps) {
    if (q->device == d) out.push_back(q->stats);
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.qp_num < b.qp_num; });
  return out;
}

int SoftHca::live_objects() const {
  std::lock_guard l(state_->lock);
  return static_cast<int>(state_->pds.size() + state_->mrs.size() + state_->cqs.size() + state_->qps.size() +
                          state_->channels.size()) +
         state_->open_contexts;
}

}  // namespace ibburn::testing
