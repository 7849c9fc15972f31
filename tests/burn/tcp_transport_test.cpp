// The TCP transport over loopback, in one process: both ends of each flow.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <cstring>
#include <future>
#include <sstream>
#include <thread>

#include "common/payload_pattern.h"
#include "burn/socket_util.h"
#include "burn/tcp_transport.h"
#include "burn/tcp_wire.h"

using namespace ibburn::burn;
using namespace std::chrono_literals;

namespace {

struct Pair {
  std::unique_ptr<Connection> a, b;  // a = initiator (src), b = acceptor (dst)
};

Pair make_pair(Transport& t, bool bidir, int streams, std::uint32_t stage = 1, std::uint32_t stage_b = 1) {
  ConnectionSpec sa{stage, 7, 0, 1, true, bidir, true, streams};
  ConnectionSpec sb{stage_b, 7, 1, 0, bidir, true, false, streams};
  Pair p{t.create(sa), t.create(sb)};
  auto deadline = Clock::now() + 5s;
  auto blob_a = p.a->local_address(), blob_b = p.b->local_address();
  auto accept = std::async(std::launch::async, [&] { p.b->connect(blob_a, deadline); });
  p.a->connect(blob_b, deadline);
  accept.get();
  return p;
}

// Runs until the receiver has counted `bytes` (bounded), then stops both ends.
void run_until(Pair& p, std::uint64_t bytes) {
  p.a->start();
  p.b->start();
  auto deadline = Clock::now() + 20s;
  while (p.b->counters().rx.bytes < bytes && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
  p.a->stop();
  p.b->stop();
  EXPECT_TRUE(p.a->wait(Clock::now() + 5s));
  EXPECT_TRUE(p.b->wait(Clock::now() + 5s));
}

std::unique_ptr<Transport> loopback(bool verify = false, std::size_t msg = 64 << 10) {
  TransportOptions o;
  o.bind = "127.0.0.1";
  o.verify = verify;
  o.message_size = msg;
  return make_tcp_transport(o);
}

}  // namespace

TEST(TcpTransport, DescribesItsEndpoint) {
  auto t = loopback();
  EndpointInfo e = t->local_endpoint();
  EXPECT_EQ(e.address, "127.0.0.1");
  EXPECT_EQ(e.endpoint, "127.0.0.1");
  EXPECT_FALSE(e.host.empty());
  TransportOptions bad;
  bad.bind = "no-such-interface0";
  EXPECT_THROW(make_tcp_transport(bad), std::exception);
}

TEST(TcpTransport, OneWayStreamsCountBytesWithoutErrors) {
  auto t = loopback();
  Pair p = make_pair(*t, false, 3);
  run_until(p, 50u << 20);
  auto ca = p.a->counters(), cb = p.b->counters();
  EXPECT_GE(cb.rx.bytes, 50u << 20);
  EXPECT_GE(ca.tx.bytes, cb.rx.bytes);
  EXPECT_EQ(ca.rx.bytes, 0u);  // one-way: the source receives nothing
  EXPECT_EQ(cb.rx.errors, 0u);
  EXPECT_FALSE(p.a->error()) << p.a->error()->reason;
  EXPECT_FALSE(p.b->error()) << p.b->error()->reason;
}

TEST(TcpTransport, BidirectionalVerifiedTrafficHasNoMismatch) {
  auto t = loopback(true);
  Pair p = make_pair(*t, true, 2);
  p.a->start();
  p.b->start();
  auto deadline = Clock::now() + 20s;
  while ((p.b->counters().rx.bytes < (8u << 20) || p.a->counters().rx.bytes < (8u << 20)) && Clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  p.a->stop();
  p.b->stop();
  ASSERT_TRUE(p.a->wait(Clock::now() + 5s));
  ASSERT_TRUE(p.b->wait(Clock::now() + 5s));
  for (auto* c : {p.a.get(), p.b.get()}) {
    EXPECT_GE(c->counters().rx.bytes, 8u << 20);
    EXPECT_EQ(c->counters().rx.mismatches, 0u);
    EXPECT_FALSE(c->error()) << c->error()->reason;
  }
}

TEST(TcpTransport, PeerThatDisappearsIsReportedWithAReason) {
  auto t = loopback();
  Pair p = make_pair(*t, false, 2);
  p.a->start();
  p.b->start();
  auto deadline = Clock::now() + 10s;
  while (p.b->counters().rx.bytes == 0 && Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  p.a.reset();  // the sending end vanishes without stopping
  deadline = Clock::now() + 5s;
  while (!p.b->error() && Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  ASSERT_TRUE(p.b->error());
  EXPECT_TRUE(p.b->error()->peer_side);
  EXPECT_NE(p.b->error()->reason.find("rank 0"), std::string::npos) << p.b->error()->reason;
  p.b->stop();
  EXPECT_TRUE(p.b->wait(Clock::now() + 5s));
}

TEST(TcpTransport, StaleStageIsRefusedAtConnect) {
  auto t = loopback();
  EXPECT_THROW(make_pair(*t, false, 1, /*stage=*/1, /*stage_b=*/2), TransportError);
}

TEST(TcpTransport, ConnectIsBounded) {
  auto t = loopback();
  ConnectionSpec acceptor{1, 1, 1, 0, false, true, false, 2};
  auto c = t->create(acceptor);
  auto t0 = Clock::now();
  try {
    c->connect(AddressBlob{'1', '2', '7', '.', '0', '.', '0', '.', '1', ' ', '1'}, Clock::now() + 300ms);
    FAIL() << "no peer ever connected";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("0 of 2 streams"), std::string::npos) << e.what();
  }
  EXPECT_LT(Clock::now() - t0, 5s);
  ConnectionSpec initiator{1, 1, 0, 1, true, false, true, 1};
  auto d = t->create(initiator);
  std::uint16_t port = 0;
  { Fd l = listen_tcp("127.0.0.1", 0, 1, &port); }  // a port nobody listens on any more
  std::string blob = "127.0.0.1 " + std::to_string(port);
  EXPECT_THROW(d->connect(AddressBlob(blob.begin(), blob.end()), Clock::now() + 2s), TransportError);
}

// A hand-made sender: the receiver must validate every header and the verified payload.
TEST(TcpTransport, ReceiverRejectsOutOfSequenceAndCountsMismatches) {
  auto t = loopback(true, 64);
  ConnectionSpec rx{3, 9, 1, 0, false, true, false, 1};
  auto c = t->create(rx);
  auto blob = c->local_address();
  std::istringstream in(std::string(blob.begin(), blob.end()));
  std::string ip;
  unsigned port;
  in >> ip >> port;
  auto accept = std::async(std::launch::async, [&] { c->connect({'x', ' ', '0'}, Clock::now() + 5s); });
  Fd s = connect_tcp(ip, static_cast<std::uint16_t>(port), "", Clock::now() + 5s);
  std::uint32_t hello[4] = {tcp::kHelloMagic, 3, 9, 0};
  send_all(s.get(), hello, sizeof hello, Clock::now() + 5s);
  accept.get();
  c->start();
  auto message = [&](std::uint64_t seq, bool corrupt) {
    tcp::Header h;
    h.stage = 3;
    h.flow = 9;
    h.length = 64;
    h.seq = seq;
    std::uint64_t payload[8];
    for (int i = 0; i < 8; ++i) payload[i] = ibburn::pattern_word(9, seq, static_cast<std::uint64_t>(i));
    if (corrupt) payload[5] ^= 1;
    send_all(s.get(), &h, sizeof h, Clock::now() + 5s);
    send_all(s.get(), payload, sizeof payload, Clock::now() + 5s);
  };
  message(0, false);
  message(1, true);   // one flipped bit: one word differs
  message(5, false);  // sequence gap: the stream is no longer trusted
  auto deadline = Clock::now() + 5s;
  while (c->counters().rx.errors == 0 && Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  auto k = c->counters();
  EXPECT_EQ(k.rx.bytes, 128u);
  EXPECT_EQ(k.rx.mismatches, 1u);
  EXPECT_EQ(k.rx.errors, 1u);
  ASSERT_TRUE(c->error());
  EXPECT_NE(c->error()->reason.find("mismatch"), std::string::npos) << c->error()->reason;
  c->stop();
  EXPECT_TRUE(c->wait(Clock::now() + 5s));
}
