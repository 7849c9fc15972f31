#include "counters/flap_detector.h"

#include <gtest/gtest.h>

using namespace ibburn;
using namespace ibburn::counters;
using topo::PortState;

namespace {

// Three ports: sw[1]<->h1[1], sw[2]<->h2[1], and an unused sw[3] that stays Down.
struct Series {
  std::vector<Snapshot> sweeps;
  PortSample base(const std::string& node, uint64_t guid, int port, PortRef peer) {
    PortSample p;
    p.node = node;
    p.node_guid = guid;
    p.port = port;
    p.peer = peer;
    p.reachable = true;
    p.state = PortState::Active;
    p.counters.set(Counter::LinkDownedCounter, 0, 8);
    p.counters.set(Counter::SymbolErrorCounter, 0, 16);
    return p;
  }
  Snapshot next() {
    Snapshot s;
    s.time_ms = static_cast<int64_t>(sweeps.size()) * 1000;
    s.ports = {base("sw", 1, 1, {"h1", 1}), base("h1", 2, 1, {"sw", 1}), base("sw", 1, 2, {"h2", 1}),
               base("h2", 3, 1, {"sw", 2}), base("sw", 1, 3, {"", 0})};
    s.ports[4].peer.reset();
    s.ports[4].state = PortState::Down;
    return s;
  }
};

struct Feed {
  FlapDetector detector;
  std::vector<WatchEvent> events;
  void feed(const Snapshot& s) {
    auto e = detector.observe(s);
    events.insert(events.end(), e.begin(), e.end());
  }
  size_t count(const std::string& kind) const {
    size_t n = 0;
    for (const auto& e : events) n += e.event == kind;
    return n;
  }
};

}  // namespace

TEST(FlapDetector, SteadyFabricHasNoFlapsEvenWithAPermanentlyDownPort) {
  Series s;
  Feed r;
  for (int i = 0; i < 20; ++i) r.feed(s.next());
  EXPECT_TRUE(r.detector.findings().empty());
  EXPECT_TRUE(r.events.empty());
  EXPECT_EQ(r.detector.sweeps(), 20u);
}

TEST(FlapDetector, TwoObservedBouncesFlagOnlyThatLink) {
  Series s;
  Feed r;
  // sw[1] goes Down/Active twice; its peer h1 cannot be reached while the link is down.
  const std::vector<PortState> pattern = {PortState::Active, PortState::Down,   PortState::Active,
                                          PortState::Init,   PortState::Active, PortState::Active};
  for (PortState st : pattern) {
    Snapshot snap = s.next();
    snap.ports[0].state = st;
    if (st != PortState::Active) {
      snap.ports[1].reachable = false;
      snap.ports[1].state = PortState::Unknown;
    }
    r.feed(snap);
  }
  auto f = r.detector.findings();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::Flapping);
  ASSERT_EQ(f[0].ports.size(), 2u);
  EXPECT_EQ(f[0].ports[0], (PortRef{"h1", 1}));
  EXPECT_EQ(f[0].ports[1], (PortRef{"sw", 1}));
  EXPECT_EQ(r.count("flapping"), 1u);  // announced once even though both ends bounced
  EXPECT_EQ(r.count("unreachable"), 2u);
  EXPECT_EQ(r.count("reachable"), 2u);
  EXPECT_EQ(r.count("state"), 4u);
}

TEST(FlapDetector, OneBounceIsNotFlapping) {
  Series s;
  Feed r;
  for (PortState st : {PortState::Active, PortState::Down, PortState::Active}) {
    Snapshot snap = s.next();
    snap.ports[2].state = st;
    r.feed(snap);
  }
  EXPECT_TRUE(r.detector.findings().empty());
  EXPECT_EQ(r.count("state"), 2u);
}

TEST(FlapDetector, LinkDownedCounterRisesCountEvenWhenNoSweepSawTheLinkDown) {
  Series s;
  Feed r;
  uint64_t ld = 0;
  for (int i = 0; i < 4; ++i) {
    Snapshot snap = s.next();
    if (i == 1 || i == 3) ++ld;  // fast bounces between sweeps
    snap.ports[3].counters.set(Counter::LinkDownedCounter, ld, 8);
    r.feed(snap);
  }
  auto f = r.detector.findings();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ports[0], (PortRef{"h2", 1}));
  EXPECT_EQ(r.count("link_downed"), 2u);
}

TEST(FlapDetector, ADownSeenAndCountedIsOneBounceNotTwo) {
  Series s;
  Feed r;
  // Down with LinkDowned +1 in the same interval, then Active: one bounce only.
  Snapshot a = s.next(), b = s.next(), c = s.next();
  b.ports[0].state = PortState::Down;
  b.ports[0].counters.set(Counter::LinkDownedCounter, 1, 8);
  c.ports[0].counters.set(Counter::LinkDownedCounter, 1, 8);
  r.feed(a);
  r.feed(b);
  r.feed(c);
  EXPECT_TRUE(r.detector.findings().empty());
}

TEST(FlapDetector, UfmRuleInitializingInFiveOfTenSweeps) {
  Series s;
  Feed r;
  // Alternates Init/Active: never Down, LinkDowned never rises; Init 5 times in 10 sweeps.
  // With min_bounces out of reach only the UFM rule can fire.
  FlapDetector d(FlapRules{1000, 10, 5});
  size_t flapped_at = 0;
  for (int i = 0; i < 10; ++i) {
    Snapshot snap = s.next();
    snap.ports[2].state = i % 2 ? PortState::Init : PortState::Active;
    d.observe(snap);
    if (!flapped_at && !d.findings().empty()) flapped_at = d.sweeps();
  }
  EXPECT_EQ(flapped_at, 10u);  // the 5th Init sweep
  auto f = d.findings();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ports[1], (PortRef{"sw", 2}));
  EXPECT_NE(f[0].message.find("initializing in 5 of 10 sweeps"), std::string::npos);
}

TEST(FlapDetector, UfmRuleNeedsFiveWithinTheWindow) {
  Series s;
  FlapDetector d(FlapRules{1000, 10, 5});
  // Init every third sweep: at most 4 in any 10 consecutive sweeps.
  for (int i = 0; i < 30; ++i) {
    Snapshot snap = s.next();
    snap.ports[2].state = i % 3 == 0 ? PortState::Init : PortState::Active;
    d.observe(snap);
  }
  EXPECT_TRUE(d.findings().empty());
}

TEST(FlapDetector, RisingErrorsAreStreamed) {
  Series s;
  Feed r;
  Snapshot a = s.next(), b = s.next();
  b.ports[1].counters.set(Counter::SymbolErrorCounter, 7, 16);
  r.feed(a);
  r.feed(b);
  ASSERT_EQ(r.count("errors_rising"), 1u);
  EXPECT_EQ(r.events[0].ports[0], (PortRef{"h1", 1}));
  EXPECT_EQ(r.events[0].details["counter"], "SymbolErrorCounter");
  EXPECT_EQ(to_json(r.events[0])["event"], "errors_rising");
}
