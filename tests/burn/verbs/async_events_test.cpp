// Async events and failure attribution: a local port that went down is blamed locally, a
// peer that died is blamed on the peer (the rule, the monitor on the software HCA, and two
// flows end to end).
#include "burn/verbs/async_events.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "burn/verbs/verbs_transport_factory.h"
#include "tests/burn/transport_suite.h"
#include "tests/burn/verbs/soft_hca.h"
#include "tests/support/temp_dir.h"

namespace ibburn::testing {
namespace {

using namespace std::chrono_literals;
using burn::Clock;
using namespace burn::verbs;

AsyncEvent port_event(ibv_event_type type, int port, Clock::time_point at) {
  AsyncEvent e;
  e.type = type;
  e.port = port;
  e.at = at;
  return e;
}

LocalPortEvidence evidence() {
  LocalPortEvidence e;
  e.port_name = "mlx5_0:1";
  e.port = 1;
  e.since = Clock::now();
  return e;
}

TEST(LocalPortFault, NothingLocalMeansNoLocalFault) {
  LocalPortEvidence e = evidence();
  e.events = {port_event(IBV_EVENT_PORT_ERR, 2, e.since + 1s),  // another port of the device
              port_event(IBV_EVENT_PORT_ACTIVE, 1, e.since + 1s), port_event(IBV_EVENT_LID_CHANGE, 1, e.since)};
  EXPECT_EQ(local_port_fault(e), std::nullopt);
}

TEST(LocalPortFault, AFlapNamesThePortAndWhen) {
  LocalPortEvidence e = evidence();
  e.events = {port_event(IBV_EVENT_PORT_ERR, 1, e.since + 250ms), port_event(IBV_EVENT_PORT_ACTIVE, 1, e.since + 2s)};
  e.link_downed = 1;
  const auto fault = local_port_fault(e);
  ASSERT_TRUE(fault);
  EXPECT_EQ(*fault,
            "local port mlx5_0:1 went down 0.250 s into the flow (IBV_EVENT_PORT_ERR), came back 2.000 s in "
            "(IBV_EVENT_PORT_ACTIVE) and counted 1 link-down event (counters/link_downed)");
}

TEST(LocalPortFault, EachPieceOfEvidenceIsEnoughAlone) {
  LocalPortEvidence down = evidence();
  down.down = "DOWN";
  EXPECT_EQ(local_port_fault(down), "local port mlx5_0:1 is DOWN now");
  LocalPortEvidence counter = evidence();
  counter.link_downed = 3;
  EXPECT_EQ(local_port_fault(counter), "local port mlx5_0:1 counted 3 link-down events (counters/link_downed)");
  LocalPortEvidence fatal = evidence();
  fatal.events = {port_event(IBV_EVENT_DEVICE_FATAL, 0, fatal.since)};
  EXPECT_NE(local_port_fault(fatal)->find("IBV_EVENT_DEVICE_FATAL"), std::string::npos);
}

TEST(LocalPortFault, OnlyPathLossIsReattributed) {
  EXPECT_TRUE(path_loss(describe_completion_error(IBV_WC_RETRY_EXC_ERR).kind));
  EXPECT_TRUE(path_loss(describe_completion_error(IBV_WC_RESP_TIMEOUT_ERR).kind));
  EXPECT_FALSE(path_loss(describe_completion_error(IBV_WC_REM_ACCESS_ERR).kind));
  EXPECT_FALSE(path_loss(describe_completion_error(IBV_WC_RNR_RETRY_EXC_ERR).kind));
  const CompletionError e =
      blame_local_port(describe_completion_error(IBV_WC_RETRY_EXC_ERR), "local port x:1 is DOWN now");
  EXPECT_EQ(e.kind, "local_link");
  EXPECT_EQ(e.reason.rfind("local port x:1 is DOWN now, which explains: transport retries exhausted", 0), 0u)
      << e.reason;
}

struct OpenDevice {
  OpenDevice(SoftHca& hca, const std::string& name) {
    hca.add_device(name, SoftPort{});
    rdma::DeviceList list(hca.api());
    context = rdma::open_context(hca.api(), list.find(name));
  }
  rdma::Context context;
};

TEST(PortMonitor, RecordsEventsWithTheirTimeAndThePortState) {
  SoftHca hca;
  OpenDevice dev(hca, "soft0");
  PortMonitor monitor(dev.context, 1, "/nonexistent");
  const PortMonitor::Mark mark = monitor.mark();
  EXPECT_EQ(mark.link_downed, std::nullopt);
  const CompletionError retry = describe_completion_error(IBV_WC_RETRY_EXC_ERR);
  EXPECT_EQ(monitor.attribute(retry, mark).kind, "peer_unreachable");  // nothing local yet

  hca.set_port_down("soft0", true);
  // The reader thread records the event on its own; the attribution drains it regardless.
  ASSERT_TRUE(eventually([&] { return !monitor.events_since(mark.at).empty(); }, 5s));
  const auto events = monitor.events_since(mark.at);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, IBV_EVENT_PORT_ERR);
  EXPECT_EQ(events[0].port, 1);
  EXPECT_GE(events[0].at, mark.at);
  const auto fault = monitor.local_fault(mark);
  ASSERT_TRUE(fault);
  EXPECT_NE(fault->find("local port soft0:1 is DOWN now and went down"), std::string::npos) << *fault;

  hca.set_port_down("soft0", false);
  hca.raise_async_event("soft0", IBV_EVENT_DEVICE_FATAL);
  EXPECT_EQ(monitor.events_since(mark.at).size(), 3u);
  EXPECT_TRUE(monitor.events_since(Clock::now() + 1s).empty());
  // A later flow does not inherit an earlier flow's events.
  EXPECT_EQ(monitor.local_fault(monitor.mark()), std::nullopt);
}

TEST(PortMonitor, LinkDownedCounterRiseIsLocalEvidence) {
  SoftHca hca;
  OpenDevice dev(hca, "mlx5_4");
  TempDir tmp;
  const std::filesystem::path counters = std::filesystem::path(tmp.path()) / "class/infiniband/mlx5_4/ports/1/counters";
  std::filesystem::create_directories(counters);
  std::ofstream(counters / "link_downed") << "7\n";
  PortMonitor monitor(dev.context, 1, tmp.path());
  const PortMonitor::Mark mark = monitor.mark();
  EXPECT_EQ(mark.link_downed, 7u);
  EXPECT_EQ(monitor.local_fault(mark), std::nullopt);
  std::ofstream(counters / "link_downed") << "9\n";  // a flap too short to see as a state
  const CompletionError e = monitor.attribute(describe_completion_error(IBV_WC_RETRY_EXC_ERR), mark);
  EXPECT_EQ(e.kind, "local_link");
  EXPECT_NE(e.reason.find("local port mlx5_4:1 counted 2 link-down events"), std::string::npos) << e.reason;
}

TEST(PortMonitor, CqOverrunIsAnAsyncEventNamingTheCq) {
  SoftHca hca;
  OpenDevice dev(hca, "soft0");
  PortMonitor monitor(dev.context, 1, "/nonexistent");
  const Clock::time_point start = Clock::now();
  hca.set_cq_capacity("soft0", 1);
  rdma::CompletionQueue cq = rdma::create_cq(dev.context, 4, nullptr);
  rdma::ProtectionDomain pd = rdma::alloc_pd(dev.context);
  ibv_qp_init_attr init{};
  init.send_cq = init.recv_cq = cq.get();
  init.qp_type = IBV_QPT_RC;
  init.cap.max_send_wr = init.cap.max_recv_wr = 4;
  rdma::QueuePair qp = rdma::create_qp(pd, init);
  // A QP in error flushes each posted WR into the CQ, which holds one: the second overruns it.
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ASSERT_EQ(hca.api().modify_qp(qp.get(), &attr, IBV_QP_STATE), 0);
  ibv_sge sge{};
  ibv_send_wr wr[2]{};
  for (auto& w : wr) {
    w.sg_list = &sge;
    w.num_sge = 1;
    w.opcode = IBV_WR_RDMA_WRITE;
    w.send_flags = IBV_SEND_SIGNALED;
  }
  wr[0].next = &wr[1];
  ibv_send_wr* bad = nullptr;
  ASSERT_EQ(hca.api().post_send(qp.get(), wr, &bad), 0);
  const auto events = monitor.events_since(start);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, IBV_EVENT_CQ_ERR);
  EXPECT_EQ(events[0].cq, cq.get());
  EXPECT_EQ(event_name(events[0].type), "IBV_EVENT_CQ_ERR");
}

// End to end: a one-way flow soft0 -> soft1, then a failure while it runs.
struct RunningFlow {
  explicit RunningFlow(SoftHca& hca) {
    hca.add_device("soft0", SoftPort{.lid = 1});
    hca.add_device("soft1", SoftPort{.lid = 2});
    burn::TransportOptions o;
    o.message_size = 4096;
    o.bind = "soft0:1";
    ta = burn::verbs::make_verbs_transport(hca.api(), o);
    o.bind = "soft1:1";
    tb = burn::verbs::make_verbs_transport(hca.api(), o);
    a = ta->create(flow_end(3, true, false));
    b = tb->create(flow_end(3, false, true));
    const auto deadline = Clock::now() + 5s;
    a->connect(b->local_address(), deadline);
    b->connect(a->local_address(), deadline);
    b->start();
    a->start();
  }
  ~RunningFlow() {
    a->stop();
    b->stop();
    EXPECT_TRUE(a->wait(Clock::now() + 20s));
    EXPECT_TRUE(b->wait(Clock::now() + 20s));
  }
  std::unique_ptr<burn::Transport> ta, tb;
  std::unique_ptr<burn::Connection> a, b;
};

TEST(FailureAttribution, LocalLinkDownIsBlamedOnTheLocalPort) {
  SoftHca hca;
  RunningFlow f(hca);
  ASSERT_TRUE(eventually([&] { return f.a->counters().tx.bytes > 0; }));
  hca.set_port_down("soft0", true);
  ASSERT_TRUE(eventually([&] { return f.a->error().has_value(); }));
  const burn::TransportFailure e = *f.a->error();
  EXPECT_FALSE(e.peer_side) << e.reason;
  EXPECT_NE(e.reason.find("local port soft0:1"), std::string::npos) << e.reason;
  EXPECT_NE(e.reason.find("IBV_EVENT_PORT_ERR"), std::string::npos) << e.reason;
  EXPECT_NE(e.reason.find("IBV_WC_RETRY_EXC_ERR"), std::string::npos) << e.reason;
}

TEST(FailureAttribution, DeadPeerIsStillBlamedOnThePeer) {
  SoftHca hca;
  RunningFlow f(hca);
  ASSERT_TRUE(eventually([&] { return f.a->counters().tx.bytes > 0; }));
  hca.set_host_dead("soft1", true);
  ASSERT_TRUE(eventually([&] { return f.a->error().has_value(); }));
  const burn::TransportFailure e = *f.a->error();
  EXPECT_TRUE(e.peer_side) << e.reason;
  EXPECT_EQ(e.reason.find("local port"), std::string::npos) << e.reason;
  EXPECT_NE(e.reason.find("IBV_WC_RETRY_EXC_ERR"), std::string::npos) << e.reason;
}

TEST(FailureAttribution, ADeadLocalAdapterFailsTheFlowWithoutACompletion) {
  SoftHca hca;
  RunningFlow f(hca);
  ASSERT_TRUE(eventually([&] { return f.a->counters().tx.bytes > 0; }));
  hca.raise_async_event("soft0", IBV_EVENT_DEVICE_FATAL);  // writes still "work": only the event says so
  ASSERT_TRUE(eventually([&] { return f.a->error().has_value(); }));
  EXPECT_FALSE(f.a->error()->peer_side);
  EXPECT_NE(f.a->error()->reason.find("IBV_EVENT_DEVICE_FATAL on soft0:1"), std::string::npos) << f.a->error()->reason;
  EXPECT_FALSE(f.b->error().has_value());  // the peer's device is fine
}

TEST(FailureAttribution, PeerLinkDownIsBlamedOnThePeer) {
  SoftHca hca;
  RunningFlow f(hca);
  ASSERT_TRUE(eventually([&] { return f.a->counters().tx.bytes > 0; }));
  hca.set_port_down("soft1", true);  // the peer's cable: soft0 sees no event of its own
  ASSERT_TRUE(eventually([&] { return f.a->error().has_value(); }));
  EXPECT_TRUE(f.a->error()->peer_side) << f.a->error()->reason;
}

}  // namespace
}  // namespace ibburn::testing
