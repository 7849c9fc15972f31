// The verbs transport between two software-HCA hosts: the shared transport suite, then what
// only verbs has (signalling cadence, credits, post lists, MTU, addressing, error mapping).
#include <gtest/gtest.h>

#include "burn/verbs/verbs_connection.h"
#include "burn/verbs/verbs_transport_factory.h"
#include "common/error.h"
#include "cuda/gpu_memory.h"
#include "tests/burn/verbs/soft_hca.h"
#include "tests/burn/transport_suite.h"

namespace ibburn::testing {
namespace {

using namespace std::chrono_literals;
using burn::Clock;
using burn::TransportOptions;

class SoftVerbsPair : public TransportPair {
 public:
  SoftVerbsPair(const TransportOptions& o, SoftPort pa = SoftPort{.lid = 1}, SoftPort pb = SoftPort{.lid = 2}) {
    hca.add_device("soft0", pa);
    hca.add_device("soft1", pb);
    TransportOptions oa = o, ob = o;
    oa.bind = "soft0:1";
    ob.bind = "soft1:1";
    ta = burn::verbs::make_verbs_transport(hca.api(), oa);
    tb = burn::verbs::make_verbs_transport(hca.api(), ob);
  }
  burn::Transport& a() override { return *ta; }
  burn::Transport& b() override { return *tb; }

  SoftHca hca;
  std::unique_ptr<burn::Transport> ta, tb;
};

INSTANTIATE_TEST_SUITE_P(Verbs, TransportSuite,
                         ::testing::Values(TransportBackend{"verbs_soft_hca", [](const TransportOptions& o) {
                                                              return std::make_unique<SoftVerbsPair>(o);
                                                            }}));

struct Flow {
  std::unique_ptr<burn::Connection> a, b;
  void connect() {
    const auto d = Clock::now() + 5s;
    a->connect(b->local_address(), d);
    b->connect(a->local_address(), d);
  }
  void start() {
    b->start();
    a->start();
  }
  void stop() {
    a->stop();
    ASSERT_TRUE(a->wait(Clock::now() + 20s));
    b->stop();
    ASSERT_TRUE(b->wait(Clock::now() + 20s));
  }
};

Flow one_way(SoftVerbsPair& p, int streams = 2) {
  Flow f{p.ta->create(flow_end(3, true, false, streams)), p.tb->create(flow_end(3, false, true, streams))};
  f.connect();
  return f;
}

TransportOptions tuned(int depth, int signal_every, int post_list) {
  TransportOptions o;
  o.message_size = 4096;
  o.verify = true;
  o.extra = {{"tx_depth", std::to_string(depth)},
             {"signal_every", std::to_string(signal_every)},
             {"post_list", std::to_string(post_list)},
             {"drain_ms", "300"}};  // the failure tests' markers never come: keep them quick
  return o;
}

TEST(VerbsTransport, SignalsOnePerKNeverExceedsDepthAndChainsPosts) {
  SoftVerbsPair p(tuned(16, 4, 4));
  Flow f = one_way(p, 3);
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.messages >= 2000; }));
  f.stop();
  const auto stats = p.hca.qp_stats("soft0");
  ASSERT_EQ(stats.size(), 3u);
  uint64_t posted = 0;
  for (const SoftQpStats& q : stats) {
    EXPECT_LE(q.max_outstanding, 16) << "credits exceeded on QP " << q.qp_num;
    EXPECT_GT(q.max_outstanding, 0);
    // One signalled WR per 4 data WRs, plus the end marker (which retires the tail).
    const uint64_t data = q.posted - 1;
    EXPECT_EQ(q.signalled, data / 4 + 1) << q.posted;
    EXPECT_LT(q.post_calls, q.posted);  // post lists: several WRs per ibv_post_send
    posted += data;
  }
  EXPECT_EQ(f.a->counters().tx.messages, posted);  // every posted WR retired and counted
  EXPECT_EQ(f.a->counters().tx.bytes, posted * 4096);
  EXPECT_EQ(f.b->counters().rx.bytes, posted * 4096);
  EXPECT_EQ(f.b->counters().rx.mismatches, 0u);
}

// Writes still in flight at stop (a rate-limited port) all arrive: the receiver waits for
// every QP's end marker, which also carries the count of the WRs after the last immediate.
TEST(VerbsTransport, DrainEndsWhenEveryQpsMarkerArrived) {
  TransportOptions o;
  o.message_size = 64u << 10;
  o.verify = true;  // the ring of slots under a pacing thread: no false mismatch
  o.extra = {{"tx_depth", "16"}, {"signal_every", "4"}};
  SoftVerbsPair p(o);
  p.hca.set_rate_limit("soft1", 0.125);  // 2 MiB in flight: 134 ms at 0.125 Gb/s
  Flow f = one_way(p);
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.messages >= 8; }));
  const auto t0 = Clock::now();
  f.a->stop();
  f.b->stop();
  const uint64_t sent_at_stop = f.a->counters().tx.bytes;
  ASSERT_TRUE(f.a->wait(Clock::now() + 20s));
  ASSERT_TRUE(f.b->wait(Clock::now() + 20s));
  const auto took = Clock::now() - t0;
  EXPECT_GT(f.a->counters().tx.bytes, sent_at_stop);              // data was in flight at stop
  EXPECT_EQ(f.b->counters().rx.bytes, f.a->counters().tx.bytes);  // and every byte arrived
  EXPECT_EQ(f.b->counters().rx.messages, f.a->counters().tx.messages);
  EXPECT_LT(took, 1500ms);  // the markers ended the drain, not the 2 s limit
  EXPECT_EQ(f.b->counters().rx.errors, 0u);
  EXPECT_EQ(f.b->counters().rx.mismatches, 0u);
  EXPECT_FALSE(f.a->error().has_value());
  EXPECT_FALSE(f.b->error().has_value());
}

// A marker that never comes (here the sender never stops) ends the drain at drain_ms,
// without a failure: the sender's own report says what happened to it.
TEST(VerbsTransport, DrainEndsAtTheLimitWhenAMarkerNeverArrives) {
  TransportOptions o = tuned(16, 4, 4);
  o.extra["drain_ms"] = "150";
  SoftVerbsPair p(o);
  Flow f = one_way(p);
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.messages > 0; }));
  const auto t0 = Clock::now();
  f.b->stop();
  ASSERT_TRUE(f.b->wait(Clock::now() + 20s));
  const auto took = Clock::now() - t0;
  EXPECT_GE(took, 150ms);
  EXPECT_LT(took, 1500ms);
  EXPECT_FALSE(f.b->error().has_value());
  f.a->stop();
  EXPECT_TRUE(f.a->wait(Clock::now() + 20s));
}

TEST(VerbsTransport, PathMtuIsTheSmallerActiveMtuAndIbUsesLids) {
  SoftVerbsPair p(TransportOptions{}, SoftPort{.lid = 5, .active_mtu = IBV_MTU_4096},
                  SoftPort{.lid = 9, .active_mtu = IBV_MTU_2048});
  Flow f = one_way(p);
  for (const SoftQpStats& q : p.hca.qp_stats("soft0")) {
    EXPECT_EQ(q.path_mtu, IBV_MTU_2048);
    EXPECT_FALSE(q.global);
    EXPECT_EQ(q.dlid, 9);
    EXPECT_EQ(q.state, IBV_QPS_RTS);
  }
  for (const SoftQpStats& q : p.hca.qp_stats("soft1")) {
    EXPECT_EQ(q.path_mtu, IBV_MTU_2048);
    EXPECT_EQ(q.dlid, 5);
  }
}

TEST(VerbsTransport, RoceAddressesByGid) {
  SoftVerbsPair p(tuned(8, 4, 2), SoftPort{.lid = 1, .roce = true, .active_mtu = IBV_MTU_1024},
                  SoftPort{.lid = 2, .roce = true, .active_mtu = IBV_MTU_4096});
  EXPECT_EQ(p.ta->local_endpoint().link_layer, "Ethernet");
  EXPECT_EQ(p.ta->local_endpoint().lid, 0);
  EXPECT_EQ(p.ta->local_endpoint().address, "::ffff:10.0.0.1");  // the port's RoCE v2 GID
  Flow f = one_way(p);
  for (const SoftQpStats& q : p.hca.qp_stats("soft0")) {
    EXPECT_TRUE(q.global);
    EXPECT_EQ(q.path_mtu, IBV_MTU_1024);
  }
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.bytes > 0; }));  // GIDs route
  f.stop();
  EXPECT_FALSE(f.a->error().has_value());
}

TEST(VerbsTransport, MixedLinkLayersAreRefusedAtConnect) {
  SoftVerbsPair p(TransportOptions{}, SoftPort{.lid = 1}, SoftPort{.lid = 2, .roce = true});
  auto a = p.ta->create(flow_end(3, true, false));
  auto b = p.tb->create(flow_end(3, false, true));
  EXPECT_THROW(a->connect(b->local_address(), Clock::now() + 1s), burn::TransportError);
}

TEST(VerbsTransport, AddressOfAnotherFlowOrShapeIsRefused) {
  SoftVerbsPair p(TransportOptions{});
  auto a = p.ta->create(flow_end(3, true, false, 2));
  auto other_flow = p.tb->create(flow_end(4, false, true, 2));
  auto other_qps = p.tb->create(flow_end(3, false, true, 3));
  EXPECT_THROW(a->connect(other_flow->local_address(), Clock::now() + 1s), burn::TransportError);
  try {
    a->connect(other_qps->local_address(), Clock::now() + 1s);
    FAIL();
  } catch (const burn::TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("3 QPs"), std::string::npos) << e.what();
  }
}

// Each injected failure surfaces as the first error of the flow, in words, with the QP.
struct InjectedFailure {
  const char* name;
  std::function<void(SoftHca&)> before_create;  // before the connections exist
  std::function<void(SoftHca&)> while_running;
  const char* reason_has;
  bool peer_side;
  bool names_qp = true;  // completion errors name the QP; a CQ failure is the whole flow's
};

class VerbsFailure : public ::testing::TestWithParam<InjectedFailure> {};

TEST_P(VerbsFailure, IsMappedToAClearReason) {
  const InjectedFailure& inj = GetParam();
  SoftVerbsPair p(tuned(16, 4, 4));
  if (inj.before_create) inj.before_create(p.hca);
  Flow f = one_way(p);
  f.start();
  ASSERT_TRUE(eventually([&] { return f.a->counters().tx.bytes > 0 || f.a->error(); }));
  if (inj.while_running) inj.while_running(p.hca);
  ASSERT_TRUE(eventually([&] { return f.a->error().has_value(); }));
  const burn::TransportFailure e = *f.a->error();
  EXPECT_NE(e.reason.find(inj.reason_has), std::string::npos) << e.reason;
  EXPECT_EQ(e.reason.find("QP ") != std::string::npos, inj.names_qp) << e.reason;
  EXPECT_EQ(e.peer_side, inj.peer_side) << e.reason;
  EXPECT_GT(f.a->counters().tx.errors, 0u);
  f.a->stop();
  f.b->stop();
  EXPECT_TRUE(f.a->wait(Clock::now() + 20s));
  EXPECT_TRUE(f.b->wait(Clock::now() + 20s));
}

INSTANTIATE_TEST_SUITE_P(
    Injected, VerbsFailure,
    ::testing::Values(InjectedFailure{"peer_host_dies", nullptr, [](SoftHca& h) { h.set_host_dead("soft1", true); },
                                      "IBV_WC_RETRY_EXC_ERR", true},
                      InjectedFailure{"peer_revokes_its_buffer", nullptr,
                                      [](SoftHca& h) { h.revoke_remote_access("soft1"); }, "IBV_WC_REM_ACCESS_ERR",
                                      true},
                      InjectedFailure{"local_link_down", nullptr, [](SoftHca& h) { h.set_port_down("soft0", true); },
                                      "local port soft0:1", false},
                      InjectedFailure{"cq_overrun", [](SoftHca& h) { h.set_cq_capacity("soft0", 1); }, nullptr,
                                      "overrun", false, false}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(VerbsTransport, HungPeerThrottlesTheSenderWithoutError) {
  TransportOptions o = tuned(8, 4, 2);
  SoftVerbsPair p(o);
  p.hca.set_receives_frozen("soft1", true);  // a hung receiver: no receive ever posted
  Flow f = one_way(p, 1);
  // rnr_retry = 7 retries forever: the sender fills its window and waits, without error.
  f.start();
  ASSERT_TRUE(eventually([&] { return p.hca.qp_stats("soft0")[0].max_outstanding == 8; }));
  EXPECT_EQ(f.a->counters().tx.bytes, 0u);
  EXPECT_FALSE(f.a->error().has_value());
  // Teardown stays bounded even though the writes never complete.
  f.a->stop();
  f.b->stop();
  EXPECT_TRUE(f.a->wait(Clock::now() + 20s));
  EXPECT_TRUE(f.b->wait(Clock::now() + 20s));
}

TEST(VerbsTransport, CorruptedWritesAreCountedAsMismatches) {
  SoftVerbsPair p(tuned(16, 4, 4));
  p.hca.set_corrupting("soft1", true);
  Flow f = one_way(p);
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.mismatches > 0; }));
  f.stop();
  EXPECT_GT(f.b->counters().rx.mismatches, 0u);
  EXPECT_FALSE(f.b->error().has_value());  // corruption is counted, not fatal
}

// --verify: each write with immediate lands in its own ring slot with its lap's pattern, so a
// write that never lands, or an old one that lands again, is a whole message of mismatches.
class VerbsWriteFault : public ::testing::TestWithParam<WriteFault> {};

TEST_P(VerbsWriteFault, IsDetectedAsMismatches) {
  SoftVerbsPair p(tuned(16, 4, 4));                // ring of 16 / 4 + 4 + 1 = 9 slots
  p.hca.set_write_fault("soft1", GetParam(), 20);  // in the third lap
  Flow f = one_way(p, 1);
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.messages >= 4 * 40; }));
  f.stop();
  EXPECT_EQ(f.b->counters().rx.mismatches, 4096u / 8);  // every word of that one message
  EXPECT_EQ(f.b->counters().rx.errors, 0u);
  EXPECT_FALSE(f.b->error().has_value());
}

INSTANTIATE_TEST_SUITE_P(Injected, VerbsWriteFault, ::testing::Values(WriteFault::Drop, WriteFault::Replay),
                         [](const auto& p) { return std::string(p.param == WriteFault::Drop ? "lost" : "replayed"); });

// A payload memory whose check throws (a CUDA error during --verify on the worker thread).
class ThrowingMemory final : public burn::verbs::PayloadMemory {
 public:
  explicit ThrowingMemory(std::unique_ptr<PayloadMemory> inner) : inner_(std::move(inner)) {}
  void* data() const override { return inner_->data(); }
  size_t size() const override { return inner_->size(); }
  const ibv_mr& mr() const override { return inner_->mr(); }
  std::string description() const override { return inner_->description(); }
  void fill(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) override {
    inner_->fill(offset, bytes, flow, seq);
  }
  uint64_t count_mismatches(size_t, size_t, uint32_t, uint64_t) const override {
    throw EnvironmentError("pattern verify kernel failed: an illegal memory access was encountered");
  }

 private:
  std::unique_ptr<PayloadMemory> inner_;
};

TEST(VerbsTransport, AnExceptionOnTheWorkerFailsTheFlowNotTheRank) {
  const TransportOptions o = tuned(16, 4, 4);
  SoftVerbsPair p(o);
  auto device = std::make_shared<burn::verbs::VerbsDevice>();
  rdma::DeviceList list(p.hca.api());
  device->context = rdma::open_context(p.hca.api(), list.find("soft1"));
  device->pd = rdma::alloc_pd(device->context);
  device->port = burn::verbs::query_port_info(device->context, 1, burn::verbs::parse_verbs_settings(o, 2));
  const burn::verbs::MemoryFactory throwing = [](const rdma::ProtectionDomain& pd, size_t bytes, int access) {
    return std::make_unique<ThrowingMemory>(burn::verbs::make_host_memory(pd, bytes, -1, access));
  };
  Flow f{p.ta->create(flow_end(3, true, false)),
         std::make_unique<burn::verbs::VerbsConnection>(device, burn::verbs::parse_verbs_settings(o, 2),
                                                        flow_end(3, false, true), true, throwing)};
  f.connect();
  f.start();
  ASSERT_TRUE(eventually([&] { return f.b->error().has_value(); }));
  EXPECT_NE(f.b->error()->reason.find("illegal memory access"), std::string::npos) << f.b->error()->reason;
  EXPECT_FALSE(f.b->error()->peer_side);
  f.a->stop();
  f.b->stop();
  EXPECT_TRUE(f.b->wait(Clock::now() + 20s));  // the worker ended normally: the rank lives on
  EXPECT_TRUE(f.a->wait(Clock::now() + 20s));
}

TEST(VerbsTransport, MessageAboveThePortsMaxMsgSzIsRefused) {
  SoftHca hca;
  hca.add_device("soft0", SoftPort{.lid = 1, .max_msg_sz = 1u << 20});
  TransportOptions o;
  o.bind = "soft0:1";
  o.message_size = 2u << 20;
  try {
    burn::verbs::make_verbs_transport(hca.api(), o);
    FAIL() << "a 2 MiB message on a port that carries 1 MiB";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("soft0:1"), std::string::npos) << what;
    EXPECT_NE(what.find("max_msg_sz 1048576"), std::string::npos) << what;
  }
  o.message_size = 1u << 20;  // at the limit: fine
  EXPECT_NO_THROW(burn::verbs::make_verbs_transport(hca.api(), o));
}

TEST(VerbsTransport, EndpointDescribesTheBoundPort) {
  SoftVerbsPair p(TransportOptions{}, SoftPort{.lid = 0x11, .gid_interface_id = 0xe41d2d0300a1b2c3});
  const burn::EndpointInfo e = p.ta->local_endpoint();
  EXPECT_EQ(e.endpoint, "soft0:1");
  EXPECT_EQ(e.lid, 0x11);
  EXPECT_EQ(e.port_guid, 0xe41d2d0300a1b2c3u);
  EXPECT_EQ(e.link_layer, "InfiniBand");
  EXPECT_DOUBLE_EQ(e.rate_gbps, 400.0);
  EXPECT_EQ(e.gpu, -1);
  EXPECT_EQ(e.address, "");  // InfiniBand: the LID is the address
  EXPECT_EQ(p.ta->name(), "verbs");
}

TEST(VerbsTransport, NoDevicesIsAnEnvironmentError) {
  SoftHca hca;
  EXPECT_THROW(burn::verbs::make_verbs_transport(hca.api(), TransportOptions{}), EnvironmentError);
}

TEST(VerbsTransport, GpuMemoryWithoutAGpuRefusesWithAReason) {
  TransportOptions o;
  o.gpu = 0;
  SoftVerbsPair p(o);
  try {
    p.ta->create(flow_end(3, true, false));
    FAIL() << "GPU memory on a machine without GPU";
  } catch (const EnvironmentError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.find("built without CUDA") != std::string::npos ||
                what.find("GPU(s) are visible") != std::string::npos)
        << what;
  }
}

TEST(VerbsTransport, EveryVerbsObjectIsReleased) {
  auto p = std::make_unique<SoftVerbsPair>(tuned(8, 4, 2));
  {
    Flow f = one_way(*p);
    f.start();
    ASSERT_TRUE(eventually([&] { return f.b->counters().rx.bytes > 0; }));
    f.stop();
  }
  p->ta.reset();
  p->tb.reset();
  EXPECT_EQ(p->hca.live_objects(), 0);
}

TEST(VerbsTransport, PairedGpuIsTheDefaultOnlyWhenCudaSeesIt) {
  // The host check paired soft1 with a GPU at 0000:1a:00.0. Without a GPU (or CUDA) here the
  // rank says so and sends from host memory; with CUDA and that GPU it would send from it.
  SoftHca hca;
  hca.add_device("soft0", SoftPort{.lid = 1});
  hca.add_device("soft1", SoftPort{.lid = 2});
  TransportOptions o;
  o.bind = "soft1:1";
  o.gpu_by_hca = {{"soft1", "0000:1a:00.0"}};
  if (ibburn::cuda::device_at_pci_address("0000:1a:00.0") >= 0) GTEST_SKIP() << "a GPU sits at that address here";
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(burn::verbs::make_verbs_transport(hca.api(), o)->local_endpoint().gpu, -1);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("soft1: its GPU 0000:1a:00.0 is not visible to CUDA"),
            std::string::npos);
  o.bind = "soft0:1";  // no pairing for soft0: host memory, silently
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(burn::verbs::make_verbs_transport(hca.api(), o)->local_endpoint().gpu, -1);
  EXPECT_EQ(::testing::internal::GetCapturedStderr().find("GPU"), std::string::npos);
}

}  // namespace
}  // namespace ibburn::testing
