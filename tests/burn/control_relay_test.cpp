// The control channel's relay (burn/control_relay.h) between real sockets: rank 0's end is a
// socketpair this test reads as rank 0 would, the host's ranks connect to the relay's path.
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include <gtest/gtest.h>

#include "burn/control_channel.h"
#include "burn/control_relay.h"

using namespace ibburn::burn;
using namespace std::chrono_literals;

namespace {

struct RelayRig {
  Relay relay{relay_path("rig" + std::to_string(::getpid()), 7)};
  std::shared_ptr<Link> up;  // rank 0's end
  std::thread thread;
  std::string why;

  RelayRig() {
    int sv[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    up = std::make_shared<Link>(Fd(sv[0]));
    thread = std::thread([this, fd = sv[1]] { why = relay.run(Fd(fd)); });
  }
  ~RelayRig() {
    relay.finish(0ms);
    thread.join();
  }
  Channel rank(int r) {
    Channel ch(connect_unix(relay.path(), Clock::now() + 2s));
    Hello h;
    h.rank = r;
    h.token = "t";
    EXPECT_TRUE(ch.send(h, Clock::now() + 1s));
    return ch;
  }
  // Rank 0's view of route r: its messages until one arrives or the deadline.
  std::vector<Message> at_rank0(Channel& route) {
    const auto deadline = Clock::now() + 3s;
    while (Clock::now() < deadline && !route.closed()) {
      auto got = route.poll(50);
      if (!got.empty()) return got;
    }
    return {};
  }
};

}  // namespace

TEST(ControlRelay, CarriesEachRanksMessagesUnderItsRankBothWays) {
  RelayRig rig;
  Channel a = rig.rank(12), b = rig.rank(13);
  Channel route12(rig.up, 12), route13(rig.up, 13);
  auto hello12 = rig.at_rank0(route12);
  auto hello13 = rig.at_rank0(route13);
  ASSERT_EQ(hello12.size(), 1u);
  ASSERT_EQ(hello13.size(), 1u);
  EXPECT_EQ(std::get<Hello>(hello12[0]).rank, 12);
  EXPECT_EQ(std::get<Hello>(hello13[0]).rank, 13);
  EXPECT_EQ(rig.up->take_new_routes(), (std::vector<int>{12, 13}));

  ASSERT_TRUE(route13.send(Start{2, 500}, Clock::now() + 1s));
  std::vector<Message> got;
  for (auto deadline = Clock::now() + 3s; got.empty() && Clock::now() < deadline;) got = b.poll(50);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::get<Start>(got[0]).duration_ms, 500);
  EXPECT_TRUE(a.poll(100).empty());  // not for rank 12

  ASSERT_TRUE(b.send(Connected{2, {{4, "rank 13: refused"}}}, Clock::now() + 1s));
  auto reply = rig.at_rank0(route13);
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(std::get<Connected>(reply[0]).failures.at(4), "rank 13: refused");
}

TEST(ControlRelay, ARankThatDiesIsReportedAndOneRankZeroDropsIsClosed) {
  RelayRig rig;
  auto a = std::make_unique<Channel>(rig.rank(3));
  Channel b = rig.rank(4);
  Channel route3(rig.up, 3), route4(rig.up, 4);
  ASSERT_EQ(rig.at_rank0(route3).size(), 1u);
  ASSERT_EQ(rig.at_rank0(route4).size(), 1u);

  a.reset();  // rank 3's process dies: its socket closes
  for (auto deadline = Clock::now() + 3s; !route3.closed() && Clock::now() < deadline;) route3.poll(50);
  ASSERT_TRUE(route3.closed());
  EXPECT_EQ(route3.close_reason(), "relay: connection closed");
  EXPECT_FALSE(route4.closed());

  route4.close("sent no report within the deadline");  // rank 0 gives up on rank 4
  for (auto deadline = Clock::now() + 3s; !b.closed() && Clock::now() < deadline;) b.poll(50);
  EXPECT_TRUE(b.closed());
}

TEST(ControlRelay, WhenRankZeroGoesEveryRankOfTheHostSeesItsChannelClose) {
  RelayRig rig;
  Channel a = rig.rank(1), b = rig.rank(2);
  Channel route1(rig.up, 1);
  ASSERT_EQ(rig.at_rank0(route1).size(), 1u);
  ASSERT_TRUE(route1.send(Done{}, Clock::now() + 1s));
  rig.up->close("rank 0 exits");
  std::vector<Message> got;
  for (auto deadline = Clock::now() + 3s; !a.closed() && Clock::now() < deadline;)
    for (auto& m : a.poll(50)) got.push_back(m);
  ASSERT_EQ(got.size(), 1u);  // what was sent before the end still arrives
  EXPECT_TRUE(std::holds_alternative<Done>(got[0]));
  for (auto deadline = Clock::now() + 3s; !b.closed() && Clock::now() < deadline;) b.poll(50);
  EXPECT_TRUE(a.closed());
  EXPECT_TRUE(b.closed());
  rig.thread.join();
  rig.thread = std::thread([] {});
  EXPECT_NE(rig.why.find("rank 0 closed the link"), std::string::npos) << rig.why;
  EXPECT_NE(::access(rig.relay.path().c_str(), F_OK), 0) << "the path is removed";
}

TEST(ControlChannel, RankZeroLosesEveryRouteOfARelayWhoseLinkCloses) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  auto link = std::make_shared<Link>(Fd(sv[0]));
  Fd relay_end(sv[1]);
  const std::string lines = "5 {\"type\":\"done\"}\n6 {\"type\":\"done\"}\n";
  ASSERT_EQ(::write(relay_end.get(), lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  relay_end.reset();
  Channel five(link, 5), six(link, 6);
  EXPECT_EQ(five.poll(100).size(), 1u);
  EXPECT_EQ(six.read_available().size(), 1u);
  EXPECT_TRUE(five.closed());
  EXPECT_TRUE(six.closed());
  EXPECT_EQ(six.close_reason(), "relay link: connection closed");
}

TEST(ControlChannel, AMalformedPrefixClosesTheLinkAsAProtocolError) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  Channel ch{Fd(sv[0])};
  Fd other(sv[1]);
  const std::string line = "x7 {\"type\":\"done\"}\n";
  ASSERT_EQ(::write(other.get(), line.data(), line.size()), static_cast<ssize_t>(line.size()));
  EXPECT_TRUE(ch.poll(100).empty());
  EXPECT_TRUE(ch.closed());
  EXPECT_EQ(ch.close_reason(), "protocol error: malformed line prefix");
}
