// The fabric changing shape during the burn, on plain snapshots: a switch that drops out is
// one finding with its cables, a cable down or bounced is one finding naming both ends, the
// far ends' errors under load become details of the cause, nothing changed is nothing.
#include <gtest/gtest.h>

#include "common/finding_details.h"
#include "counters/sweep.h"
#include "routing/cable_index.h"
#include "run/topology_change.h"
#include "tests/routing/fat_tree_fixture.h"

namespace ibburn::run {
namespace {

using counters::Counter;
using counters::PortSample;
using counters::Snapshot;
using topo::PortState;

// leaf01 and leaf02 (2 hosts each), each with one cable to spine01 and one to spine02.
struct Fabric {
  Snapshot snap;
  void link(const std::string& a, uint64_t ga, int pa, const std::string& b, uint64_t gb, int pb,
            topo::NodeType tb = topo::NodeType::Switch) {
    add(a, ga, pa, {b, pb}, a.starts_with("host") ? topo::NodeType::CA : topo::NodeType::Switch);
    add(b, gb, pb, {a, pa}, tb);
  }
  void add(const std::string& node, uint64_t guid, int port, PortRef peer, topo::NodeType t) {
    PortSample p;
    p.node = node;
    p.node_guid = guid;
    p.node_type = t;
    p.port = port;
    p.peer = peer;
    p.reachable = true;
    p.state = PortState::Active;
    p.counters.set(Counter::LinkDownedCounter, 0, 8);
    p.counters.set(Counter::LinkErrorRecoveryCounter, 0, 8);
    snap.ports.push_back(p);
  }
  PortSample& at(const std::string& node, int port) {
    for (auto& p : snap.ports)
      if (p.node == node && p.port == port) return p;
    throw std::logic_error("no port " + node);
  }
  void drop(const std::string& node) {
    for (auto& p : snap.ports)
      if (p.node == node) {
        p.reachable = false;
        p.state = PortState::Unknown;
        p.error = "PortCounters: timeout";
      }
  }
};

Fabric two_tier() {
  Fabric f;
  f.link("leaf01", 1, 3, "spine01", 3, 1);
  f.link("leaf01", 1, 4, "spine02", 4, 1);
  f.link("leaf02", 2, 3, "spine01", 3, 2);
  f.link("leaf02", 2, 4, "spine02", 4, 2);
  f.link("host001 mlx5_0", 11, 1, "leaf01", 1, 1);
  f.link("host002 mlx5_0", 12, 1, "leaf01", 1, 2);
  f.link("host003 mlx5_0", 13, 1, "leaf02", 2, 1);
  f.link("host004 mlx5_0", 14, 1, "leaf02", 2, 2);
  return f;
}

TEST(TopologyWatch, NothingChangedIsNoFinding) {
  Fabric f = two_tier();
  TopologyWatch w(f.snap);
  EXPECT_EQ(w.compare(f.snap, 1), 0u);
  EXPECT_TRUE(w.findings().empty());
}

TEST(TopologyWatch, ASwitchThatDroppedOutIsOneFindingWithItsCables) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.drop("spine01");
  now.at("leaf01", 3).state = PortState::Down;
  now.at("leaf02", 3).state = PortState::Down;
  now.at("leaf01", 3).counters.set(Counter::LinkDownedCounter, 1, 8);
  ASSERT_EQ(w.compare(now.snap, 1), 1u);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::SwitchDropped);
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.message, "spine01 dropped out during stage 1: 2 cables down");
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"spine01", 0}}));
  EXPECT_EQ(f.details["cables_down"], 2);
  EXPECT_EQ(f.details["cables"], (nlohmann::json{"leaf01[3] - spine01[1]", "leaf02[3] - spine01[2]"}));
  EXPECT_EQ(f.details["error"], "PortCounters: timeout");
  // The far ends' LinkDownedCounter rising under load is that switch's doing.
  std::vector<Finding> errors(1);
  errors[0].kind = FindingKind::ErrorsUnderLoad;
  errors[0].message = "leaf01[3] LinkDownedCounter +1";
  errors[0].ports = {{"leaf01", 3}, {"spine01", 1}};
  std::vector<Finding> elsewhere(1);
  elsewhere[0].kind = FindingKind::ErrorsUnderLoad;
  elsewhere[0].ports = {{"leaf02", 4}, {"spine02", 2}};
  elsewhere[0].details = ErrorsUnderLoadDetails{.stage = 1, .rise = {{"SymbolErrorCounter", 3}}};
  errors.push_back(elsewhere[0]);
  w.absorb(errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].ports[0], (PortRef{"leaf02", 4}));
  ASSERT_EQ(w.findings()[0].details["consequences"].size(), 1u);
  EXPECT_EQ(w.findings()[0].details["consequences"][0]["kind"], "errors_under_load");
  EXPECT_TRUE(w.affected(1, 3));   // leaf01[3], the far end
  EXPECT_TRUE(w.affected(3, 2));   // spine01[2]
  EXPECT_FALSE(w.affected(1, 4));  // leaf01[4] to spine02
  // The next stage's sweep shows the same: reported once.
  EXPECT_EQ(w.compare(now.snap, 2), 0u);
}

TEST(TopologyWatch, RelayErrorsFromTheStageOfAChangeOnArePartOfIt) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.drop("spine01");
  ASSERT_EQ(w.compare(now.snap, 2), 1u);
  // The sweep's MADs to spine01's LID, discarded by the vantage point's leaf.
  auto relayed = [](int stage, std::map<std::string, uint64_t> rise) {
    return Finding{FindingKind::ErrorsUnderLoad,
                   Severity::Error,
                   "relay",
                   {{"leaf01", 1}, {"host001 mlx5_0", 1}},
                   ErrorsUnderLoadDetails{.stage = stage, .rise = std::move(rise)}};
  };
  std::vector<Finding> errors = {relayed(2, {{"PortRcvSwitchRelayErrors", 96}}), relayed(3, {{"PortXmitDiscards", 4}}),
                                 relayed(1, {{"PortRcvSwitchRelayErrors", 3}}),  // before it: its own
                                 relayed(2, {{"PortRcvSwitchRelayErrors", 5}, {"SymbolErrorCounter", 9}})};
  w.absorb(errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].details["stage"], 1);
  EXPECT_TRUE(errors[1].details["rise"].contains("SymbolErrorCounter"));
  EXPECT_EQ(w.findings()[0].details["consequences"].size(), 2u);
}

TEST(TopologyWatch, ALeafThatDroppedOutTakesItsHostsWithItInOneFinding) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.drop("leaf01");
  now.drop("host001 mlx5_0");
  now.drop("host002 mlx5_0");
  ASSERT_EQ(w.compare(now.snap, 3), 1u);
  EXPECT_EQ(w.findings()[0].message, "leaf01 dropped out during stage 3: 4 cables down, 2 HCAs unreachable behind it");
  EXPECT_EQ(w.findings()[0].details["hcas"], (nlohmann::json{"host001 mlx5_0", "host002 mlx5_0"}));
}

TEST(TopologyWatch, ACableDownBetweenSwitchesThatStillAnswerIsOneCableFinding) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.at("leaf01", 4).state = PortState::Down;
  now.at("leaf01", 4).phys = topo::PhysState::Polling;
  now.at("spine02", 1).state = PortState::Down;
  now.at("spine02", 1).counters.set(Counter::LinkDownedCounter, 1, 8);
  ASSERT_EQ(w.compare(now.snap, 1), 1u);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"leaf01", 4}, {"spine02", 1}}));
  EXPECT_TRUE(f.details["still_down"].get<bool>());
  EXPECT_EQ(f.message,
            "cable leaf01[4] - spine02[1] went down during stage 1: leaf01[4] Down/Polling, spine02[1] Down, "
            "spine02[1] LinkDownedCounter +1");
}

TEST(TopologyWatch, CoverageIsNotJudgedOnTheCablesOfASwitchThatDroppedOut) {
  const auto ft = routing::fixture::make_fat_tree(2, 2, 2);
  routing::RouteModel m;
  m.fabric = ft.fabric;
  m.cables = std::make_unique<routing::CableIndex>(m.fabric, 0);
  // The sweep targets of that fabric, all answering before stage 1.
  Snapshot start;
  start.ports = counters::sweep_targets(m.fabric);
  for (auto& p : start.ports) p.reachable = true;
  TopologyWatch w(start);
  Snapshot now = start;
  const topo::Node& spine = m.fabric.node(ft.spines[0]);
  for (auto& p : now.ports)
    if (p.node_guid == spine.guid) p.reachable = false;
  ASSERT_EQ(w.compare(now, 1), 1u);
  const std::vector<double> judged = w.judgeable(m, std::vector<double>(m.cables->size(), 1.0));
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e) {
    const routing::Edge& edge = m.cables->edge(e);
    const bool spine_cable = edge.from.node == ft.spines[0] || edge.to.node == ft.spines[0];
    EXPECT_EQ(judged[e], spine_cable ? 0.0 : 1.0) << m.cables->describe(m.fabric, e);
  }
}

TEST(TopologyWatch, ALinkDownedStepWithoutLossIsACableThatBounced) {
  Fabric start = two_tier();
  start.at("leaf02", 3).counters.set(Counter::LinkDownedCounter, 7, 8);
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.at("leaf02", 3).counters.set(Counter::LinkDownedCounter, 9, 8);
  ASSERT_EQ(w.compare(now.snap, 2), 1u);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_FALSE(f.details["still_down"].get<bool>());
  EXPECT_EQ(f.message,
            "cable leaf02[3] - spine01[2] went down and came back during stage 2: leaf02[3] LinkDownedCounter +2");
  EXPECT_EQ(f.details["ends"][0]["link_downed_rise"], 2);
}

TEST(TopologyWatch, AnHcaThatNoLongerAnswersIsItsCableWithBothEnds) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.drop("host003 mlx5_0");
  now.at("leaf02", 1).state = PortState::Down;
  ASSERT_EQ(w.compare(now.snap, 1), 1u);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"host003 mlx5_0", 1}, {"leaf02", 1}}));
  EXPECT_EQ(f.message,
            "cable host003 mlx5_0[1] - leaf02[1] went down during stage 1: host003 mlx5_0[1] no longer answers, "
            "leaf02[1] Down");
}

TEST(TopologyWatch, PortsThatDidNotAnswerBeforeStageOneAreNotJudged) {
  Fabric start = two_tier();
  start.drop("spine02");
  TopologyWatch w(start.snap);
  EXPECT_EQ(w.compare(start.snap, 1), 0u);
}

// On hardware a leaf that reboots steps LinkDownedCounter on every one of its ports at once:
// that is the leaf, one finding with the count of its links, not one link_down per cable.
TEST(TopologyWatch, EveryLinkOfALeafSteppingAtOnceIsOneBounceOfTheLeaf) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  for (auto& p : now.snap.ports)
    if (p.node == "leaf01" || (p.peer && p.peer->node == "leaf01")) p.counters.set(Counter::LinkDownedCounter, 1, 8);
  ASSERT_EQ(w.compare(now.snap, 2), 1u) << w.findings()[0].message;
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::SwitchBounced);
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"leaf01", 0}}));
  EXPECT_EQ(f.message,
            "leaf01 bounced during stage 2: 4 of its 4 links went down at once, and came back (4 with "
            "LinkDownedCounter stepping)");
  EXPECT_EQ(f.details["links_down"], 4);
  EXPECT_EQ(f.details["still_down"], 0);
  EXPECT_TRUE(w.affected(11, 1));         // host001's end is the bounce's
  EXPECT_EQ(w.compare(now.snap, 3), 0u);  // told once
}

// A leaf whose links retrained at once (LinkErrorRecoveryCounter, no LinkDownedCounter) is a
// bounce too; one retrained link alone is left to the counters check.
TEST(TopologyWatch, ALeafWhoseLinksAllRetrainedAtOnceIsOneBounce) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric one = start;
  one.at("leaf01", 4).counters.set(Counter::LinkErrorRecoveryCounter, 1, 8);
  EXPECT_EQ(w.compare(one.snap, 1), 0u);
  Fabric now = start;
  for (auto& p : now.snap.ports)
    if (p.node == "leaf01") p.counters.set(Counter::LinkErrorRecoveryCounter, 2, 8);
  ASSERT_EQ(w.compare(now.snap, 2), 1u) << w.findings()[0].message;
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::SwitchBounced);
  EXPECT_EQ(f.message,
            "leaf01 bounced during stage 2: 4 of its 4 links went down at once, and came back (4 with "
            "LinkErrorRecoveryCounter stepping)");
  EXPECT_EQ(f.details["link_error_recovery_stepped"], 4);
}

// Where no counter steps (the simulator; some firmware), only a poll during the stage sees the
// leaf go: it and its hosts do not answer, the spines' ports to it are down; by the sweep after
// the stage all is back.
TEST(TopologyWatch, ALeafThePollsSawGoAndComeBackIsOneBounce) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric poll = start;
  for (const char* n : {"leaf01", "host001 mlx5_0", "host002 mlx5_0"}) poll.drop(n);
  poll.at("spine01", 1).state = PortState::Down;
  poll.at("spine02", 1).state = PortState::Down;
  w.observe(poll.snap);
  ASSERT_EQ(w.compare(start.snap, 1), 1u);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::SwitchBounced);
  EXPECT_EQ(f.message,
            "leaf01 bounced during stage 1: 4 of its 4 links went down at once, and came back (4 seen down by the "
            "polls during the stage)");
  EXPECT_EQ(w.compare(start.snap, 2), 0u);  // what the polls saw is judged once
}

// One cable that went down and came back within the stage, seen only by a poll: that cable.
TEST(TopologyWatch, ACableThePollSawDownIsACableThatBounced) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric poll = start;
  poll.at("leaf01", 4).state = PortState::Down;
  poll.at("spine02", 1).state = PortState::Down;
  w.observe(poll.snap);
  ASSERT_EQ(w.compare(start.snap, 1), 1u);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_EQ(f.message,
            "cable leaf01[4] - spine02[1] went down and came back during stage 1: leaf01[4] seen Down during the "
            "stage, spine02[1] seen Down during the stage");
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"leaf01", 4}, {"spine02", 1}}));
}

// A poll that reached fewer than half the ports lost its own way to the fabric: its silence
// says nothing about the ports.
TEST(TopologyWatch, APollThatReachedLittleOfTheFabricJudgesOnlyWhatItRead) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric poll = start;
  for (auto& p : poll.snap.ports)
    if (p.node != "leaf02") {
      p.reachable = false;
      p.state = PortState::Unknown;
    }
  w.observe(poll.snap);
  EXPECT_EQ(w.compare(start.snap, 1), 0u);
}

// A management path through a cable that went down (#45): the polls go by LID, and for a
// while the routes to some ports cross the cable. A port that stops answering while its link
// is up at the end that answers, with a cable seen down in the same poll, is unreachable behind
// that cable: a detail of the cable's one finding, never a second link_down of its own.
TEST(TopologyWatch, APortSilentBehindACableSeenDownIsUnreachableNotDown) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric poll = start;
  poll.at("leaf02", 4).state = PortState::Down;
  poll.at("spine02", 2).state = PortState::Down;
  poll.drop("host003 mlx5_0");  // its route crossed the cable; leaf02[1] still says Active
  w.observe(poll.snap);
  ASSERT_EQ(w.compare(start.snap, 1), 1u) << findings_to_json(w.findings()).dump(1);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"spine02", 2}, {"leaf02", 4}}));
  EXPECT_EQ(f.message,
            "cable leaf02[4] - spine02[2] went down and came back during stage 1: spine02[2] seen Down during the "
            "stage, leaf02[4] seen Down during the stage; 1 port did not answer behind it (their links up: "
            "unreachable, not down)");
  EXPECT_EQ(f.details["unreachable_behind"], nlohmann::json::array({"host003 mlx5_0[1]"}));
  EXPECT_TRUE(w.affected(13, 1));  // the host's other findings are this cable's
}

// The leaf itself out of reach: every port of it and its hosts silent, one of its uplinks up
// at the spine that answers. One finding, the cable's; none of the silent ports is down.
TEST(TopologyWatch, ALeafOutOfReachBehindItsDownUplinkIsThatCablesFinding) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric poll = start;
  for (const char* n : {"leaf01", "host001 mlx5_0", "host002 mlx5_0"}) poll.drop(n);
  poll.at("spine02", 1).state = PortState::Down;  // leaf01[4] - spine02[1]; spine01[1] still Active
  w.observe(poll.snap);
  ASSERT_EQ(w.compare(start.snap, 1), 1u) << findings_to_json(w.findings()).dump(1);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"spine02", 1}, {"leaf01", 4}}));
  EXPECT_EQ(f.details["unreachable_behind"].size(), 6u) << f.details.dump(1);
}

// The sweep after the stage, the cable still down: the same, and the cable is still down.
TEST(TopologyWatch, TheSweepAfterTheStageTellsUnreachablePortsBehindACableStillDown) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric now = start;
  now.at("leaf02", 4).state = PortState::Down;
  now.at("spine02", 2).state = PortState::Down;
  now.drop("host003 mlx5_0");
  ASSERT_EQ(w.compare(now.snap, 2), 1u) << findings_to_json(w.findings()).dump(1);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.kind, FindingKind::LinkDown);
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"spine02", 2}, {"leaf02", 4}}));
  EXPECT_TRUE(f.details["still_down"].get<bool>());
  EXPECT_EQ(f.details["unreachable_behind"], nlohmann::json::array({"host003 mlx5_0[1]"}));
}

// The polls ask a silent port again by directed route around the ports that said Down
// (counters::Sweeper): one that answers that way is checked as any other (Active: fine) and
// named in the cable's details, not covered by it.
TEST(TopologyWatch, APortReachedAroundACableSeenDownIsCheckedAndNamedInItsDetails) {
  Fabric start = two_tier();
  TopologyWatch w(start.snap);
  Fabric poll = start;
  poll.at("leaf02", 4).state = PortState::Down;
  poll.at("spine02", 2).state = PortState::Down;
  poll.at("host003 mlx5_0", 1).by_directed_route = true;
  w.observe(poll.snap);
  ASSERT_EQ(w.compare(start.snap, 1), 1u) << findings_to_json(w.findings()).dump(1);
  const Finding& f = w.findings()[0];
  EXPECT_EQ(f.ports, (std::vector<PortRef>{{"spine02", 2}, {"leaf02", 4}}));
  EXPECT_EQ(f.details["reached_around"], nlohmann::json::array({"host003 mlx5_0[1]"}));
  EXPECT_FALSE(f.details.contains("unreachable_behind"));
  EXPECT_NE(f.message.find("; 1 port behind it answered by directed route around it"), std::string::npos) << f.message;
  EXPECT_FALSE(w.affected(13, 1));
}

}  // namespace
}  // namespace ibburn::run
