#include "tests/burn/transport_suite.h"

#include <future>

namespace ibburn::testing {
namespace {

using namespace std::chrono_literals;
using burn::Clock;
using burn::Connection;

burn::TransportOptions small_verified() {
  burn::TransportOptions o;
  o.message_size = 64 << 10;  // small messages keep the suite fast on shared CPUs
  o.verify = true;
  return o;
}

struct Flow {
  std::unique_ptr<Connection> a, b;
};

// Creates both ends, swaps addresses and connects them concurrently (a TCP accept may wait
// for the other side's connect).
Flow connect_flow(TransportPair& pair, bool bidirectional) {
  Flow f;
  f.a = pair.a().create(flow_end(7, true, bidirectional, 2, true));
  f.b = pair.b().create(flow_end(7, bidirectional, true));
  const auto deadline = Clock::now() + 20s;
  const burn::AddressBlob addr_a = f.a->local_address(), addr_b = f.b->local_address();
  auto ca = std::async(std::launch::async, [&] { f.a->connect(addr_b, deadline); });
  auto cb = std::async(std::launch::async, [&] { f.b->connect(addr_a, deadline); });
  ca.get();
  cb.get();
  return f;
}

// Stops the sender first so that everything it counted has reached the receiver.
void stop_in_order(Flow& f) {
  f.a->stop();
  ASSERT_TRUE(f.a->wait(Clock::now() + 20s));
  f.b->stop();
  ASSERT_TRUE(f.b->wait(Clock::now() + 20s));
}

TEST_P(TransportSuite, OneWayFlowDeliversVerifiedBytes) {
  auto pair = GetParam().make(small_verified());
  Flow f = connect_flow(*pair, false);
  f.b->start();
  f.a->start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.bytes >= (4u << 20); }));
  stop_in_order(f);
  const auto tx = f.a->counters().tx, rx = f.b->counters().rx;
  EXPECT_GT(tx.bytes, 0u);
  EXPECT_EQ(rx.bytes, tx.bytes);
  EXPECT_EQ(rx.messages, tx.messages);
  EXPECT_EQ(rx.mismatches, 0u);
  EXPECT_EQ(rx.errors, 0u);
  EXPECT_EQ(f.b->counters().tx.bytes, 0u);  // the receiving end sent nothing
  EXPECT_FALSE(f.a->error().has_value());
  EXPECT_FALSE(f.b->error().has_value());
}

TEST_P(TransportSuite, BidirectionalFlowCountsBothDirections) {
  auto pair = GetParam().make(small_verified());
  Flow f = connect_flow(*pair, true);
  f.a->start();
  f.b->start();
  ASSERT_TRUE(
      eventually([&] { return f.a->counters().rx.bytes >= (2u << 20) && f.b->counters().rx.bytes >= (2u << 20); }));
  f.a->stop();
  f.b->stop();
  ASSERT_TRUE(f.a->wait(Clock::now() + 20s));
  ASSERT_TRUE(f.b->wait(Clock::now() + 20s));
  EXPECT_GT(f.a->counters().tx.bytes, 0u);
  EXPECT_GT(f.b->counters().tx.bytes, 0u);
  // Both stopped at once: each receiver got at most what the other end counted as sent.
  EXPECT_LE(f.b->counters().rx.bytes, f.a->counters().tx.bytes);
  EXPECT_LE(f.a->counters().rx.bytes, f.b->counters().tx.bytes);
  EXPECT_EQ(f.a->counters().rx.mismatches + f.b->counters().rx.mismatches, 0u);
  EXPECT_FALSE(f.a->error().has_value());
  EXPECT_FALSE(f.b->error().has_value());
}

TEST_P(TransportSuite, PeerThatGoesAwayFailsTheFlowWithAPeerSideReason) {
  auto pair = GetParam().make(small_verified());
  Flow f = connect_flow(*pair, false);
  f.b->start();
  f.a->start();
  ASSERT_TRUE(eventually([&] { return f.b->counters().rx.bytes > 0; }));
  f.b.reset();  // the receiving process is gone
  ASSERT_TRUE(eventually([&] { return f.a->error().has_value(); }));
  EXPECT_TRUE(f.a->error()->peer_side) << f.a->error()->reason;
  EXPECT_FALSE(f.a->error()->reason.empty());
  f.a->stop();
  EXPECT_TRUE(f.a->wait(Clock::now() + 20s));
}

TEST_P(TransportSuite, StopRightAfterStartEnds) {
  auto pair = GetParam().make(small_verified());
  Flow f = connect_flow(*pair, true);
  f.a->start();
  f.b->start();
  f.a->stop();
  f.b->stop();
  EXPECT_TRUE(f.a->wait(Clock::now() + 20s));
  EXPECT_TRUE(f.b->wait(Clock::now() + 20s));
  EXPECT_EQ(f.a->counters().rx.mismatches, 0u);
}

TEST_P(TransportSuite, RunningConnectionsCanBeDestroyed) {
  auto pair = GetParam().make(small_verified());
  Flow f = connect_flow(*pair, true);
  f.a->start();
  f.b->start();
  ASSERT_TRUE(eventually([&] { return f.a->counters().rx.bytes > 0; }));
  f.a.reset();  // without stop(): must end its workers by itself
  f.b.reset();
  SUCCEED();
}

}  // namespace
}  // namespace ibburn::testing
