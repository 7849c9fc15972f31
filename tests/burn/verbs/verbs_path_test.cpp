// How a verbs rank picks its port and GID and what path attributes its QPs carry, between
// software-HCA hosts: GID choice per host from the GID table (RoCE v2, IPv4 first), the
// gid_index and pkey_index overrides checked, ends of different GID kinds refused at connect,
// SL / traffic class / P_Key index / ACK timeout / hop limit on the QPs, a GRH on InfiniBand
// across subnets, and the default port binding with its binding line.
#include <gtest/gtest.h>

#include "burn/socket_util.h"
#include "burn/verbs/verbs_transport_factory.h"
#include "common/error.h"
#include "tests/burn/transport_suite.h"
#include "tests/burn/verbs/soft_hca.h"

namespace ibburn::testing {
namespace {

using namespace std::chrono_literals;
using burn::Clock;
using burn::TransportOptions;

const ibv_gid kLinkLocal = soft_gid(0xfe80000000000000ull, 0x0202c9fffe000001ull);

struct Hosts {
  Hosts(SoftPort pa, SoftPort pb) {
    hca.add_device("soft0", pa);
    hca.add_device("soft1", pb);
  }
  std::unique_ptr<burn::Transport> transport(const std::string& bind, TransportOptions o = {}) {
    o.bind = bind;
    return burn::verbs::make_verbs_transport(hca.api(), o);
  }
  SoftHca hca;
};

// One flow from a to b, connected; its QPs live as long as it does.
struct Flow {
  Flow(burn::Transport& a, burn::Transport& b)
      : tx(a.create(flow_end(1, true, false))), rx(b.create(flow_end(1, false, true))) {
    tx->connect(rx->local_address(), Clock::now() + 5s);
    rx->connect(tx->local_address(), Clock::now() + 5s);
  }
  // Data moves and stops cleanly.
  void run() {
    rx->start();
    tx->start();
    EXPECT_TRUE(eventually([&] { return rx->counters().rx.bytes > 0 || tx->error(); }));
    tx->stop();
    EXPECT_TRUE(tx->wait(Clock::now() + 20s));
    rx->stop();
    EXPECT_TRUE(rx->wait(Clock::now() + 20s));
    EXPECT_FALSE(tx->error().has_value()) << tx->error()->reason;
    EXPECT_GT(rx->counters().rx.bytes, 0u);
  }
  std::unique_ptr<burn::Connection> tx, rx;
};

// The QPs of `device`, after checking there are the flow's two.
std::vector<SoftQpStats> qps_of(const SoftHca& hca, const std::string& device) {
  auto stats = hca.qp_stats(device);
  EXPECT_EQ(stats.size(), 2u) << device;
  return stats;
}

TransportOptions knobs(std::map<std::string, std::string> extra) {
  TransportOptions o;
  o.message_size = 4096;
  o.extra = std::move(extra);
  return o;
}

std::string refusal(Hosts& h, const TransportOptions& o) {
  try {
    h.transport("soft0:1", o);
    return "accepted";
  } catch (const Error& e) {  // bad input, or a port the run cannot use
    return e.what();
  }
}

TEST(VerbsPath, RoceSourcesFromItsRoceV2Ipv4GidPerHost) {
  // soft0 has IPv6 and IPv4 addresses and a hole in its table; soft1 the ConnectX default
  // (v2 IPv4 at index 3): each host picks its own index.
  SoftPort rich{.lid = 1, .roce = true};
  rich.gids = {{kLinkLocal, IBV_GID_TYPE_ROCE_V1},
               {kLinkLocal, IBV_GID_TYPE_ROCE_V2},
               {},
               {soft_gid(0x20010db800000000ull, 1), IBV_GID_TYPE_ROCE_V2},
               {soft_gid_ipv4(10, 0, 0, 1), IBV_GID_TYPE_ROCE_V1},
               {soft_gid_ipv4(10, 0, 0, 1), IBV_GID_TYPE_ROCE_V2}};
  Hosts h(rich, SoftPort{.lid = 2, .roce = true});
  auto a = h.transport("soft0:1", knobs({}));
  auto b = h.transport("soft1:1", knobs({}));
  EXPECT_EQ(a->local_endpoint().address, "::ffff:10.0.0.1");
  EXPECT_EQ(b->local_endpoint().address, "::ffff:10.0.0.2");
  Flow f(*a, *b);
  f.run();
  for (const SoftQpStats& q : qps_of(h.hca, "soft0")) {
    EXPECT_TRUE(q.global);
    EXPECT_EQ(q.sgid_index, 5);
    EXPECT_EQ(q.hop_limit, 255);
  }
  for (const SoftQpStats& q : qps_of(h.hca, "soft1")) EXPECT_EQ(q.sgid_index, 3);
}

TEST(VerbsPath, RoceWithoutAnAddressRefusesNamingThePort) {
  SoftPort bare{.lid = 1, .roce = true};
  bare.gids = {{kLinkLocal, IBV_GID_TYPE_ROCE_V1}, {kLinkLocal, IBV_GID_TYPE_ROCE_V2}};
  Hosts h(bare, SoftPort{.lid = 2});
  try {
    h.transport("soft0:1");
    FAIL() << "a link-local GID was accepted";
  } catch (const EnvironmentError& e) {
    EXPECT_NE(std::string(e.what()).find("soft0:1 has no RoCE v2 GID with a routable IP address"), std::string::npos)
        << e.what();
  }
}

TEST(VerbsPath, GidIndexOverrideIsCheckedAgainstTheTable) {
  SoftPort holes{.lid = 1, .roce = true};
  holes.gids = {{kLinkLocal, IBV_GID_TYPE_ROCE_V1}, {kLinkLocal, IBV_GID_TYPE_ROCE_V2}, {}};
  Hosts h(holes, SoftPort{.lid = 2, .roce = true});
  EXPECT_NE(
      refusal(h, knobs({{"gid_index", "0"}})).find("soft0:1's GID 0 RoCE v1 fe80::202:c9ff:fe00:1 is not RoCE v2"),
      std::string::npos);
  EXPECT_NE(refusal(h, knobs({{"gid_index", "2"}})).find("soft0:1's GID 2 is empty"), std::string::npos);
  EXPECT_NE(refusal(h, knobs({{"gid_index", "9"}})).find("soft0:1 has 3 GID entries"), std::string::npos);
  EXPECT_EQ(refusal(h, knobs({{"gid_index", "1"}})), "accepted");  // RoCE v2, link-local: as asked
}

TEST(VerbsPath, EndsWithGidsOfDifferentFamiliesAreRefusedAtConnect) {
  SoftPort v6{.lid = 1, .roce = true};
  v6.gids = {{kLinkLocal, IBV_GID_TYPE_ROCE_V1}, {soft_gid(0x20010db800000000ull, 1), IBV_GID_TYPE_ROCE_V2}};
  Hosts h(v6, SoftPort{.lid = 2, .roce = true});
  auto a = h.transport("soft0:1");
  auto b = h.transport("soft1:1");
  auto tx = a->create(flow_end(1, true, false));
  auto rx = b->create(flow_end(1, false, true));
  try {
    tx->connect(rx->local_address(), Clock::now() + 1s);
    FAIL() << "IPv6 and IPv4 ends connected";
  } catch (const burn::TransportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("this end soft0:1 GID 1 (RoCE v2, IPv6 2001:db8::1)"), std::string::npos) << what;
    EXPECT_NE(what.find("the peer soft1:1 GID 3 (RoCE v2, IPv4 ::ffff:10.0.0.2)"), std::string::npos) << what;
  }
}

TEST(VerbsPath, KnobsReachEveryQp) {
  SoftPort ib{.lid = 1};
  ib.pkeys = {0xffff, 0x8005};
  SoftPort ib2 = ib;
  ib2.lid = 2;
  Hosts h(ib, ib2);
  const TransportOptions o = knobs({{"sl", "5"}, {"pkey_index", "1"}, {"timeout", "20"}, {"retry_cnt", "5"}});
  auto a = h.transport("soft0:1", o), b = h.transport("soft1:1", o);
  Flow f(*a, *b);
  f.run();
  for (const char* dev : {"soft0", "soft1"}) {
    for (const SoftQpStats& q : qps_of(h.hca, dev)) {
      EXPECT_EQ(q.sl, 5) << dev;
      EXPECT_EQ(q.pkey_index, 1) << dev;
      EXPECT_EQ(q.timeout, 20) << dev;
      EXPECT_EQ(q.retry_cnt, 5) << dev;
      EXPECT_FALSE(q.global) << dev;  // one subnet: LIDs route
    }
  }
}

TEST(VerbsPath, RoceTrafficClassAndDefaultTimeoutReachTheQps) {
  Hosts h(SoftPort{.lid = 1, .roce = true}, SoftPort{.lid = 2, .roce = true});
  const TransportOptions o = knobs({{"tc", "106"}});
  auto a = h.transport("soft0:1", o), b = h.transport("soft1:1", o);
  Flow f(*a, *b);
  for (const SoftQpStats& q : qps_of(h.hca, "soft1")) {
    EXPECT_EQ(q.traffic_class, 106);
    EXPECT_EQ(q.hop_limit, 255);
    EXPECT_EQ(q.timeout, 18);
    EXPECT_EQ(q.retry_cnt, 7);
  }
}

TEST(VerbsPath, PkeyIndexMustHoldAKey) {
  SoftPort p{.lid = 1};
  p.pkeys = {0xffff, 0x0000};
  Hosts h(p, SoftPort{.lid = 2});
  EXPECT_NE(refusal(h, knobs({{"pkey_index", "1"}})).find("pkey_index=1: soft0:1's P_Key 1 is empty"),
            std::string::npos);
  EXPECT_NE(refusal(h, knobs({{"pkey_index", "2"}})).find("pkey_index=2: soft0:1 has 2 P_Key entries"),
            std::string::npos);
}

// --pkey: each port uses its own index for the partition (full first); a port without it is
// refused at start, naming the host and the partition.
TEST(VerbsPath, APkeyIsLookedUpInEachPortsTable) {
  SoftPort a{.lid = 1}, b{.lid = 2};
  a.pkeys = {0xffff, 0x0001, 0x8001};  // limited and full: the full one is used
  b.pkeys = {0xffff, 0x8002, 0x8001};
  Hosts h(a, b);
  const TransportOptions o = knobs({{"pkey", "0x8001"}});
  auto ta = h.transport("soft0:1", o), tb = h.transport("soft1:1", o);
  Flow f(*ta, *tb);
  f.run();
  for (const SoftQpStats& q : qps_of(h.hca, "soft0")) EXPECT_EQ(q.pkey_index, 2);
  for (const SoftQpStats& q : qps_of(h.hca, "soft1")) EXPECT_EQ(q.pkey_index, 2);
  const std::string why = refusal(h, knobs({{"pkey", "0x8003"}}));
  EXPECT_NE(why.find("soft0:1 is not in partition 0x0003"), std::string::npos) << why;
  EXPECT_NE(refusal(h, knobs({{"pkey", "0x7fff"}})).find("--pkey"), std::string::npos);
}

TEST(VerbsPath, InfinibandUsesAGrhAcrossSubnets) {
  Hosts h(SoftPort{.lid = 1, .subnet_prefix = 0xfe80000000000001ull},
          SoftPort{.lid = 2, .subnet_prefix = 0xfe80000000000002ull});
  auto a = h.transport("soft0:1", knobs({})), b = h.transport("soft1:1", knobs({}));
  Flow f(*a, *b);
  f.run();
  for (const char* dev : {"soft0", "soft1"}) {
    for (const SoftQpStats& q : qps_of(h.hca, dev)) {
      EXPECT_TRUE(q.global) << dev;
      EXPECT_EQ(q.hop_limit, 255) << dev;
    }
  }
}

TEST(VerbsPath, InfinibandUsesAGrhWhereThePortRequiresOne) {
  Hosts h(SoftPort{.lid = 1, .grh_required = true}, SoftPort{.lid = 2});
  auto a = h.transport("soft0:1", knobs({})), b = h.transport("soft1:1", knobs({}));
  Flow f(*a, *b);
  f.run();
  for (const SoftQpStats& q : qps_of(h.hca, "soft0")) EXPECT_TRUE(q.global);
  for (const SoftQpStats& q : qps_of(h.hca, "soft1")) EXPECT_FALSE(q.global);
}

TEST(VerbsPath, DefaultBindingIsPrintedWithItsReason) {
  SoftHca hca;
  // Discovery order, not name order; one Ethernet port among InfiniBand ones.
  hca.add_device("mlx5_10", SoftPort{.lid = 10});
  hca.add_device("mlx5_3", SoftPort{.lid = 3, .roce = true});
  hca.add_device("mlx5_2", SoftPort{.lid = 2});
  hca.add_device("mlx5_1", SoftPort{.lid = 1});
  TransportOptions o;
  o.rank = 7;
  o.local_rank = 2;
  o.local_ranks = 3;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(burn::verbs::make_verbs_transport(hca.api(), o)->local_endpoint().endpoint, "mlx5_10:1");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "ibburn: rank 7 (" + burn::hostname() +
                                                          ", local rank 2): verbs mlx5_10:1, GID 0 IB, active MTU 4096 "
                                                          "(port 3 of 3 active InfiniBand ports by name (1 Ethernet "
                                                          "left out))\n");

  o.hca_by_gpu = {{"0000:1a:00.0", "mlx5_2"}, {"0000:3b:00.0", "mlx5_1"}};
  o.local_rank = 1;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(burn::verbs::make_verbs_transport(hca.api(), o)->local_endpoint().endpoint, "mlx5_1:1");
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("0000:3b:00.0"), std::string::npos);

  o.hca_by_gpu.clear();
  o.local_ranks = 2;  // three InfiniBand ports, two ranks
  ::testing::internal::CaptureStderr();
  EXPECT_THROW(burn::verbs::make_verbs_transport(hca.api(), o), Error);
  o.bind = "mlx5_7:1";
  EXPECT_THROW(burn::verbs::make_verbs_transport(hca.api(), o), EnvironmentError);
  ::testing::internal::GetCapturedStderr();
}

}  // namespace
}  // namespace ibburn::testing
