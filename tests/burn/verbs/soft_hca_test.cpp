// The software HCA itself, driven through the verbs table and the RAII wrappers: the
// transport tests are only as good as its model of QPs, CQs and memory regions.
#include "tests/burn/verbs/soft_hca.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "burn/verbs/qp_address.h"
#include "rdma/verbs_objects.h"
#include "common/error.h"

namespace ibburn::testing {
namespace {

using namespace burn::verbs;

struct Host {
  rdma::Context ctx;
  rdma::ProtectionDomain pd;
  rdma::CompletionQueue cq;
  rdma::QueuePair qp;
  std::vector<char> buf = std::vector<char>(4096);
  rdma::MemoryRegion mr;
  PortInfo port;
};

class SoftHcaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hca_.add_device("soft0", SoftPort{.lid = 1});
    hca_.add_device("soft1", SoftPort{.lid = 2});
    rdma::DeviceList list(hca_.api());
    a_ = make(list, "soft0");
    b_ = make(list, "soft1");
  }
  Host make(rdma::DeviceList& list, const char* name) {
    Host h;
    h.ctx = rdma::open_context(hca_.api(), list.find(name));
    h.pd = rdma::alloc_pd(h.ctx);
    h.cq = rdma::create_cq(h.ctx, 4, nullptr);
    ibv_qp_init_attr init{};
    init.send_cq = init.recv_cq = h.cq.get();
    init.qp_type = IBV_QPT_RC;
    init.cap.max_send_wr = 2;
    init.cap.max_recv_wr = 2;
    h.qp = rdma::create_qp(h.pd, init);
    h.mr = rdma::reg_mr(h.pd, h.buf.data(), h.buf.size(), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    h.port = query_port_info(h.ctx, 1, VerbsSettings{});
    return h;
  }
  int modify(Host& h, const QpTransition& t) {
    QpTransition copy = t;
    return hca_.api().modify_qp(h.qp.get(), &copy.attr, copy.mask);
  }
  FlowAddress address_of(Host& h) {
    FlowAddress f = burn::verbs::address_of(h.port);
    f.qps = {{h.qp->qp_num, 0}};
    return f;
  }
  void connect(Host& from, Host& to) {
    ASSERT_EQ(modify(from, init_transition(1, IBV_ACCESS_REMOTE_WRITE, 0)), 0);
    const FlowAddress peer = address_of(to);
    ASSERT_EQ(modify(from, rtr_transition(from.port, peer, peer.qps[0], PathKnobs{})), 0);
    ASSERT_EQ(modify(from, rts_transition(0, PathKnobs{})), 0);
  }
  int write(Host& from, Host& to, size_t offset, size_t len, uint32_t rkey, bool signalled = true) {
    ibv_sge sge{reinterpret_cast<uint64_t>(from.buf.data()), static_cast<uint32_t>(len), from.mr->lkey};
    ibv_send_wr wr{};
    wr.wr_id = 42;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.send_flags = signalled ? IBV_SEND_SIGNALED : 0;
    wr.wr.rdma.remote_addr = reinterpret_cast<uint64_t>(to.buf.data()) + offset;
    wr.wr.rdma.rkey = rkey;
    ibv_send_wr* bad = nullptr;
    return hca_.api().post_send(from.qp.get(), &wr, &bad);
  }
  ibv_wc poll_one(Host& h) {
    ibv_wc wc{};
    EXPECT_EQ(hca_.api().poll_cq(h.cq.get(), 1, &wc), 1);
    return wc;
  }

  SoftHca hca_;
  Host a_, b_;
};

TEST_F(SoftHcaTest, QpStateMachineRejectsSkippedStates) {
  const FlowAddress peer = address_of(b_);
  EXPECT_NE(modify(a_, rtr_transition(a_.port, peer, peer.qps[0], PathKnobs{})), 0);  // RESET -> RTR
  EXPECT_NE(modify(a_, rts_transition(0, PathKnobs{})), 0);                           // RESET -> RTS
  EXPECT_EQ(write(a_, b_, 0, 8, b_.mr->rkey), EINVAL);                                // post before RTS
  EXPECT_EQ(modify(a_, init_transition(1, IBV_ACCESS_REMOTE_WRITE, 0)), 0);
  EXPECT_NE(modify(a_, rts_transition(0, PathKnobs{})), 0);  // INIT -> RTS
  EXPECT_EQ(modify(a_, rtr_transition(a_.port, peer, peer.qps[0], PathKnobs{})), 0);
  EXPECT_EQ(modify(a_, rts_transition(0, PathKnobs{})), 0);
}

TEST_F(SoftHcaTest, WriteCopiesIntoThePeerAndCompletes) {
  connect(a_, b_);
  connect(b_, a_);
  std::memcpy(a_.buf.data(), "payload!", 8);
  ASSERT_EQ(write(a_, b_, 100, 8, b_.mr->rkey), 0);
  EXPECT_EQ(std::memcmp(b_.buf.data() + 100, "payload!", 8), 0);
  const ibv_wc wc = poll_one(a_);
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
  EXPECT_EQ(wc.wr_id, 42u);
}

// A rate-limited port carries a write for bytes * 8 / rate: until then its bytes have not
// landed and it has not completed (the data is in flight).
TEST_F(SoftHcaTest, RateLimitedWritesLandWhenThePortHasCarriedThem) {
  connect(a_, b_);
  connect(b_, a_);
  hca_.set_rate_limit("soft1", 0.0005);  // 500 kb/s: 4000 bytes take 64 ms, less 20 ms of idle credit
  std::memcpy(a_.buf.data(), "payload!", 8);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(write(a_, b_, 0, 4000, b_.mr->rkey), 0);
  ibv_wc wc{};
  EXPECT_EQ(hca_.api().poll_cq(a_.cq.get(), 1, &wc), 0);
  int got = 0;
  while (got == 0 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10)) {
    got = hca_.api().poll_cq(a_.cq.get(), 1, &wc);
  }
  ASSERT_EQ(got, 1);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(44));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
  EXPECT_EQ(std::memcmp(b_.buf.data(), "payload!", 8), 0);  // landed before it completed
}

TEST_F(SoftHcaTest, RemoteBoundsAndKeysAreChecked) {
  connect(a_, b_);
  connect(b_, a_);
  ASSERT_EQ(write(a_, b_, 4090, 8, b_.mr->rkey), 0);  // runs past the end of b's region
  EXPECT_EQ(poll_one(a_).status, IBV_WC_REM_ACCESS_ERR);
  // The QP is now in error: what follows is flushed.
  ASSERT_EQ(write(a_, b_, 0, 8, b_.mr->rkey), 0);
  EXPECT_EQ(poll_one(a_).status, IBV_WC_WR_FLUSH_ERR);
}

TEST_F(SoftHcaTest, WrongRkeyAndDeadPeer) {
  connect(a_, b_);
  connect(b_, a_);
  ASSERT_EQ(write(a_, b_, 0, 8, b_.mr->rkey + 77), 0);
  EXPECT_EQ(poll_one(a_).status, IBV_WC_REM_ACCESS_ERR);
  hca_.set_host_dead("soft0", true);
  ASSERT_EQ(write(b_, a_, 0, 8, a_.mr->rkey), 0);
  EXPECT_EQ(poll_one(b_).status, IBV_WC_RETRY_EXC_ERR);
}

TEST_F(SoftHcaTest, SendQueueDepthIsEnforced) {
  connect(a_, b_);
  connect(b_, a_);
  EXPECT_EQ(write(a_, b_, 0, 8, b_.mr->rkey, false), 0);
  EXPECT_EQ(write(a_, b_, 0, 8, b_.mr->rkey, false), 0);
  EXPECT_EQ(write(a_, b_, 0, 8, b_.mr->rkey, false), ENOMEM);  // max_send_wr = 2, none retired
  EXPECT_EQ(hca_.qp_stats("soft0")[0].max_outstanding, 2);
}

TEST_F(SoftHcaTest, CqOverrunMakesPollFail) {
  hca_.set_cq_capacity("soft0", 1);
  rdma::DeviceList list(hca_.api());
  Host c = make(list, "soft0");  // its CQ holds one completion
  connect(c, b_);
  connect(b_, c);
  ASSERT_EQ(write(c, b_, 0, 8, b_.mr->rkey), 0);
  ASSERT_EQ(write(c, b_, 0, 8, b_.mr->rkey), 0);  // second completion has nowhere to go
  ibv_wc wc[2];
  EXPECT_LT(hca_.api().poll_cq(c.cq.get(), 2, wc), 0);
}

TEST_F(SoftHcaTest, ObjectsAreReleasedByTheirOwners) {
  EXPECT_GT(hca_.live_objects(), 0);
  for (Host* h : {&a_, &b_}) {  // dependents first, as the wrappers' owners must do
    h->mr.reset();
    h->qp.reset();
    h->cq.reset();
    h->pd.reset();
    h->ctx.reset();
  }
  EXPECT_EQ(hca_.live_objects(), 0);
}

TEST_F(SoftHcaTest, UnknownDeviceNamesThoseThatExist) {
  rdma::DeviceList list(hca_.api());
  try {
    list.find("mlx5_9");
    FAIL();
  } catch (const EnvironmentError& e) {
    EXPECT_NE(std::string(e.what()).find("soft0, soft1"), std::string::npos);
  }
}

}  // namespace
}  // namespace ibburn::testing
