// The routing validation on fabrics built in memory: a ring of switches whose shortest-path
// tables close a credit loop (and the same routes on two VLs that do not), tables with a hole
// or a loop, and a fat tree whose tables are clean until a leaf is made to turn or to pile
// its destinations on one uplink.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "route_check/route_findings.h"
#include "route_check/vl_tables.h"
#include "tests/routing/fat_tree_fixture.h"
#include "common/error.h"
#include "tests/support/temp_dir.h"

namespace ibburn::route_check {
namespace {

using routing::ForwardingTables;
using topo::NodeId;

// n switches in a ring (port 1 clockwise, port 2 counter-clockwise, port 3 the HCA), one HCA
// each. Tables send a destination k switches clockwise away clockwise when k <= n / 2, else
// counter-clockwise: on 4 switches the two-hop routes all go clockwise and close a loop.
struct Ring {
  topo::Fabric fabric;
  ForwardingTables lfts;
  std::vector<NodeId> switches, hcas;
  uint16_t hca_lid(int i) const { return fabric.node(hcas[static_cast<size_t>(i)]).ports[1].lid; }
};

Ring make_ring(int n) {
  Ring r;
  for (int i = 0; i < n; ++i) {
    const NodeId s = r.fabric.add_node(topo::NodeType::Switch, 0x100 + i, "sw" + std::to_string(i), 3);
    r.fabric.node(s).ports[0].lid = static_cast<uint16_t>(1 + i);
    r.switches.push_back(s);
  }
  for (int i = 0; i < n; ++i) {
    const NodeId h = r.fabric.add_node(topo::NodeType::CA, 0x200 + i, "h" + std::to_string(i) + " mlx5_0", 1);
    r.fabric.node(h).ports[1].lid = static_cast<uint16_t>(100 + i);
    r.fabric.connect({h, 1}, {r.switches[static_cast<size_t>(i)], 3});
    r.hcas.push_back(h);
  }
  for (int i = 0; i < n; ++i)
    r.fabric.connect({r.switches[static_cast<size_t>(i)], 1}, {r.switches[static_cast<size_t>((i + 1) % n)], 2});
  for (int i = 0; i < n; ++i) {
    std::vector<uint8_t> lft(200, ForwardingTables::kNoRoute);
    for (int d = 0; d < n; ++d) {
      const int k = (d - i + n) % n;
      lft[static_cast<size_t>(r.hca_lid(d))] = k == 0 ? 3 : (k <= n / 2 ? 1 : 2);
    }
    r.lfts.by_switch_guid[r.fabric.node(r.switches[static_cast<size_t>(i)]).guid] = lft;
  }
  return r;
}

std::vector<Finding> of_kind(const RouteCheck& c, FindingKind k) {
  std::vector<Finding> out;
  for (const auto& f : c.findings)
    if (f.kind == k) out.push_back(f);
  return out;
}

RouteCheck check(const topo::Fabric& fabric, const ForwardingTables& lfts, const VlTables* vls = nullptr) {
  const routing::CableIndex cables(fabric, 100);
  return check_routes(fabric, cables, lfts, vls, {});
}

TEST(CreditLoops, ShortestPathsClockwiseRoundARingCloseOneLoopNamedInOrder) {
  const Ring r = make_ring(4);
  const RouteCheck c = check(r.fabric, r.lfts);
  const auto loops = of_kind(c, FindingKind::CreditLoop);
  ASSERT_EQ(loops.size(), 1u) << c.findings.size();
  const Finding& f = loops[0];
  EXPECT_EQ(f.severity, Severity::Critical);
  EXPECT_EQ(f.details["vl"], 0);
  // The cycle is the four clockwise cables, in order from any of them.
  const std::vector<std::string> cables = f.details["cables"];
  ASSERT_EQ(cables.size(), 4u);
  const int first = cables[0][2] - '0';
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(cables[static_cast<size_t>(i)], fmt::format("sw{}[1] -> sw{}[2]", (first + i) % 4, (first + i + 1) % 4));
  // The last cable then the first: the two-hop route from the HCA before the first cable's
  // switch to the one after it closes it.
  const std::string source = fmt::format("h{} mlx5_0[1]", (first + 3) % 4);
  const std::string destination = fmt::format("h{} mlx5_0[1]", (first + 1) % 4);
  EXPECT_EQ(f.details["closing_route"]["source"], source);
  EXPECT_EQ(f.details["closing_route"]["destination"], destination);
  EXPECT_NE(f.message.find("the route " + source + " to LID " + std::to_string(100 + (first + 1) % 4) + " (" +
                           destination + ") closes it"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(c.vl_count, 1);
  EXPECT_EQ(c.destinations, 4u);
  // Into the next cable clockwise (the two-hop routes), and into the HCA's cable after one
  // hop either way.
  EXPECT_EQ(c.dependencies, 12u);
  EXPECT_FALSE(c.tree);  // every switch has an HCA: one tier, no up or down
  EXPECT_EQ(of_kind(c, FindingKind::RouteUnreachable).size(), 0u);
}

TEST(CreditLoops, AFiveSwitchRingWithShortestPathsBothWaysHasOneLoopEachWay) {
  // Two hops at most either way, yet the two-hop routes chain round the ring: 0->1->2,
  // 1->2->3, ... 4->0->1 clockwise, and the same counter-clockwise.
  const Ring r = make_ring(5);
  const RouteCheck c = check(r.fabric, r.lfts);
  EXPECT_EQ(of_kind(c, FindingKind::CreditLoop).size(), 2u);  // one per direction round the ring
}

TEST(CreditLoops, ARingWhoseRoutesCrossingOneCableTakeAnotherVlHasNoneUntilVlsAreIgnored) {
  const Ring r = make_ring(4);
  // LASH's way: the routes that cross sw3 -> sw0 or sw2 -> sw3 into a wrap (h2 -> h0, h3 -> h1)
  // on SL 1; SL2VL identity on every switch.
  VlTables vls;
  for (NodeId s : r.switches) {
    Sl2VlTable t(3);
    for (int in = 0; in <= 3; ++in)
      for (int out = 0; out <= 3; ++out)
        for (int sl = 0; sl < kSls; ++sl) t.at(in, out)[static_cast<size_t>(sl)] = static_cast<uint8_t>(sl % 8);
    vls.by_switch_guid.emplace(r.fabric.node(s).guid, t);
  }
  vls.path_sl[(uint32_t{r.hca_lid(2)} << 16) | r.hca_lid(0)] = 1;
  vls.path_sl[(uint32_t{r.hca_lid(3)} << 16) | r.hca_lid(1)] = 1;
  const RouteCheck per_vl = check(r.fabric, r.lfts, &vls);
  EXPECT_EQ(per_vl.vl_count, 2);  // the tables map SLs 0-15 to VLs 0-7; routes use SLs 0 and 1
  EXPECT_EQ(of_kind(per_vl, FindingKind::CreditLoop).size(), 0u) << per_vl.findings[0].message;
  EXPECT_EQ(of_kind(check(r.fabric, r.lfts), FindingKind::CreditLoop).size(), 1u);

  // One wrapping route moved is enough: h2 -> h0 on VL 1 takes sw2 -> sw3 -> sw0 out of VL 0's
  // cycle, and VL 1 holds that one dependency alone.
  vls.path_sl.erase((uint32_t{r.hca_lid(3)} << 16) | r.hca_lid(1));
  EXPECT_EQ(of_kind(check(r.fabric, r.lfts, &vls), FindingKind::CreditLoop).size(), 0u);
  // Both back on SL 0: the loop again, now found on VL 0 of eight.
  vls.path_sl.clear();
  const auto back = of_kind(check(r.fabric, r.lfts, &vls), FindingKind::CreditLoop);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].details["vl"], 0);
}

TEST(RouteReach, AHoleInATableIsNamedWithTheSwitchAndTheLidsOwner) {
  Ring r = make_ring(4);
  r.lfts.by_switch_guid.at(0x101)[r.hca_lid(3)] = ForwardingTables::kNoRoute;
  const auto found = of_kind(check(r.fabric, r.lfts), FindingKind::RouteUnreachable);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].ports, (std::vector<PortRef>{{"sw1", 0}}));
  EXPECT_NE(found[0].message.find("switch sw1 does not route 1 HCA LID(s): no entry for LID 103 (h3 mlx5_0[1])"),
            std::string::npos)
      << found[0].message;
  EXPECT_EQ(found[0].details["lids"][0]["why"], "no_entry");
}

TEST(RouteReach, TablesThatSendALidBackAndForthAreALoopAndOneToAnUnlinkedPortADeadEnd) {
  Ring r = make_ring(4);
  // sw0 sends h2 clockwise to sw1; sw1 sends it back.
  r.lfts.by_switch_guid.at(0x101)[r.hca_lid(2)] = 2;
  // sw3 sends h1 to itself.
  r.lfts.by_switch_guid.at(0x103)[r.hca_lid(1)] = 0;  // to the switch itself
  const RouteCheck c = check(r.fabric, r.lfts);
  const auto found = of_kind(c, FindingKind::RouteUnreachable);
  ASSERT_EQ(found.size(), 2u);
  std::string all;
  for (const auto& f : found) all += f.message + "\n";
  EXPECT_NE(all.find("routes to LID 102 (h2 mlx5_0[1]) loop back here"), std::string::npos) << all;
  EXPECT_NE(all.find("switch sw3 does not route 1 HCA LID(s): LID 101 (h1 mlx5_0[1]) ends at sw3[0] instead"),
            std::string::npos)
      << all;
}

TEST(RouteReach, ASwitchWithoutATableIsOneFinding) {
  Ring r = make_ring(4);
  r.lfts.by_switch_guid.erase(0x102);
  const auto found = of_kind(check(r.fabric, r.lfts), FindingKind::RouteUnreachable);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("switch sw2 has no forwarding table"), std::string::npos) << found[0].message;
}

// A table keyed by GUID fits either of two switches sharing it: neither gets it, and the
// finding says why (not "no table", not the other switch's routes judged as its own).
TEST(RouteReach, SwitchesSharingAGuidGetNoTableAndTheFindingSaysWhy) {
  Ring r = make_ring(4);
  r.lfts.by_switch_guid.erase(0x102);
  r.fabric.node(r.switches[2]).guid = 0x100;
  const auto found = of_kind(check(r.fabric, r.lfts), FindingKind::RouteUnreachable);
  ASSERT_EQ(found.size(), 2u);
  for (const auto& f : found)
    EXPECT_NE(f.message.find("shares its GUID 0x0000000000000100 with another node"), std::string::npos) << f.message;
}

TEST(RouteTree, DmodKTablesOnAFatTreeAreClean) {
  const auto t = routing::fixture::make_fat_tree(4, 4, 2);
  const RouteCheck c = check(t.fabric, t.lfts);
  EXPECT_TRUE(c.tree);
  EXPECT_TRUE(c.findings.empty()) << c.findings[0].message;
  EXPECT_EQ(c.destinations, 16u);
  EXPECT_GT(c.port_groups, 0u);
}

TEST(RouteTree, ALeafThatSendsARouteBackUpIsADownUpTurnAndADetour) {
  auto t = routing::fixture::make_fat_tree(3, 2, 2);
  // leaf0 sends host5 (leaf2) up to spine0, spine0 down to leaf1, and leaf1 up again to spine1.
  const uint16_t lid = t.fabric.node(t.hosts[5]).ports[1].lid;
  t.lfts.by_switch_guid.at(0x1000)[lid] = 3;  // leaf0 port 3: spine0
  t.lfts.by_switch_guid.at(0x2000)[lid] = 2;  // spine0 port 2: leaf1
  t.lfts.by_switch_guid.at(0x1001)[lid] = 4;  // leaf1 port 4: spine1 (2 hosts, then spine0, spine1)
  const RouteCheck c = check(t.fabric, t.lfts);
  const auto turns = of_kind(c, FindingKind::RouteDownUp);
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_EQ(turns[0].details["switch"], "leaf1");
  EXPECT_EQ(turns[0].details["example"]["in"], "spine0[2] -> leaf1[3]");
  EXPECT_EQ(turns[0].details["example"]["out"], "leaf1[4] -> spine1[2]");
  const auto detours = of_kind(c, FindingKind::RouteNotShortest);
  ASSERT_GE(detours.size(), 1u);
  // spine0 sends it to leaf1, two hops from leaf2 where spine0 is one.
  EXPECT_EQ(detours.size(), 1u);
  EXPECT_EQ(detours[0].details["switch"], "spine0");
  EXPECT_EQ(detours[0].details["example"]["extra_hops"], 2);
  EXPECT_EQ(of_kind(c, FindingKind::CreditLoop).size(), 0u);  // one turn alone closes no cycle
}

TEST(RouteBalance, ALeafThatSendsEveryRemoteHostUpOneCableIsUnbalancedAndPriced) {
  auto t = routing::fixture::make_fat_tree(4, 4, 4);
  auto& lft = t.lfts.by_switch_guid.at(0x1000);
  for (size_t h = 4; h < t.hosts.size(); ++h)
    if (h % 4 != 0) lft[t.fabric.node(t.hosts[h]).ports[1].lid] = 5;  // leaf0's first uplink
  const RouteCheck c = check(t.fabric, t.lfts);
  const auto found = of_kind(c, FindingKind::RouteUnbalanced);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].details["switch"], "leaf0");
  // 12 remote hosts: 9 + 3 on port 5, none on 6..8 (h % 4 == 0 went to 5 already).
  EXPECT_FALSE(found[0].details.contains("max_over_min"));  // one port carries none
  EXPECT_DOUBLE_EQ(found[0].details["mean_over_max"].get<double>(), 0.25);
  EXPECT_NE(found[0].message.find("runs at 25% of the design"), std::string::npos) << found[0].message;
}

TEST(VlTablesFile, SavesAndLoadsWhatItRead) {
  VlTables vls;
  Sl2VlTable t(2);
  t.at(1, 2) = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
  vls.by_switch_guid.emplace(0xabc, t);
  vls.path_sl[(5U << 16) | 7] = 3;
  testing::TempDir dir;
  const std::string path = dir.path() + "/vls.json";
  { std::ofstream(path) << vl_tables_to_json_text(vls); }
  const VlTables back = load_vl_tables_json(path);
  EXPECT_EQ(back.by_switch_guid.at(0xabc).vl(1, 2, 9), 1);
  EXPECT_EQ(back.by_switch_guid.at(0xabc).vl(2, 1, 9), 0);
  EXPECT_EQ(back.sl(5, 7), 3);
  EXPECT_EQ(back.sl(7, 5), 0);
  std::ofstream(path)
      << R"({"format":"ibburn-vls","version":1,"default_sl":0,"switches":{"abc":{"ports":2,"sl2vl":{"1;2":[]}}},"path_sls":[]})";
  EXPECT_THROW(load_vl_tables_json(path), InputError);
}

}  // namespace
}  // namespace ibburn::route_check
