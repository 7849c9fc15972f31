#include "price/collectives.h"

#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "fluid/fluid.h"
#include "price/step_time.h"
#include "tests/price/price_model.h"

using namespace ibburn;
using namespace ibburn::price;
using fixture::make_rail_fabric;
using fixture::PriceModel;

namespace {

std::vector<HostId> all_hosts(const PriceFabric& f) {
  std::vector<HostId> h(f.hosts().size());
  for (HostId i = 0; i < h.size(); ++i) h[i] = i;
  // The fixture's host order ("host0".."host9" sort apart from their numbers): by HCA order.
  std::sort(h.begin(), h.end(),
            [&](HostId a, HostId b) { return f.hosts()[a].rails[0].node < f.hosts()[b].rails[0].node; });
  return h;
}

std::vector<double> capacities(const PriceModel& m) {
  std::vector<double> c;
  for (const auto& e : m.cables.edges()) c.push_back(e.capacity_gbps);
  return c;
}

double load_on(const EdgeLoads& loads, routing::EdgeId e) {
  for (auto [x, l] : loads)
    if (x == e) return l;
  return 0;
}

}  // namespace

TEST(Collectives, ARingOverOneLeafLoadsEachHostCableOnceAndRunsAtLineRate) {
  PriceModel m(make_rail_fabric(1, 1, 4, 1), false);
  LoadBuilder b(m.fabric);
  const auto loads = collective_loads(m.fabric, Collective::RingAllReduce, all_hosts(m.fabric), b);
  EXPECT_EQ(loads.size(), 8u);  // 4 hosts, each cable both ways
  for (auto [e, l] : loads) EXPECT_DOUBLE_EQ(l, 1.0) << m.cables.describe(m.t.fabric, e);
  StepTimer timer(m.fabric, capacities(m));
  const double unit = timer.unit_time(loads);
  EXPECT_DOUBLE_EQ(unit, 1.0 / 400);
  EXPECT_DOUBLE_EQ(collective_time(Collective::RingAllReduce, 4, unit, 1e9).busbw_gbps, 400);
}

// Hand-computed: hosts 0,1 on leaf0 and 2,3 on leaf1, one spine. The ring's hops 1->2 and 3->0
// each cross the leaf's one uplink alone; that uplink at 50% halves the bus bandwidth, and the
// fluid model's slowest flow says the same.
TEST(Collectives, ARingThroughOneCableAtHalfRateHalvesItsBusBandwidth) {
  for (bool adaptive : {false, true}) {
    PriceModel m(make_rail_fabric(1, 2, 2, 1), adaptive);
    LoadBuilder b(m.fabric);
    const auto hosts = all_hosts(m.fabric);
    const auto loads = collective_loads(m.fabric, Collective::RingAllReduce, hosts, b);
    const routing::EdgeId uplink = m.out_of(m.t.leaves[0][0], 3);
    EXPECT_DOUBLE_EQ(load_on(loads, uplink), 1.0);
    StepTimer timer(m.fabric, capacities(m));
    const RateScale half{{uplink, 0.5}, {m.cables.reverse(uplink), 0.5}};
    const double designed = timer.unit_time(loads), slow = timer.unit_time(loads, &half);
    EXPECT_DOUBLE_EQ(collective_time(Collective::RingAllReduce, 4, designed, 1e9).busbw_gbps, 400) << adaptive;
    EXPECT_DOUBLE_EQ(collective_time(Collective::RingAllReduce, 4, slow, 1e9).busbw_gbps, 200) << adaptive;

    std::vector<fluid::FluidFlow> flows;
    for (size_t i = 0; i < hosts.size(); ++i)
      flows.push_back(fluid::fluid_flow(m.cables, *m.router, m.fabric.hosts()[hosts[i]].rails[0],
                                        m.fabric.hosts()[hosts[(i + 1) % hosts.size()]].rails[0]));
    const auto fluid = fluid::simulate_max_min(flows, fluid::degraded_capacities(m.cables, {half.begin(), half.end()}));
    EXPECT_DOUBLE_EQ(*std::min_element(fluid.flow_gbps.begin(), fluid.flow_gbps.end()), 1 / slow) << adaptive;
  }
}

// Hand-computed: a 2:1 tapered tree, two leaves of 4 hosts with 2 uplinks each. Each host sends
// to 7 others (7 units on its cable); each leaf sends 4 x 4 units up over its 2 uplinks, 8 each:
// the uplinks are the bottleneck, and the bus bandwidth is 400 x 7/8.
TEST(Collectives, AnAllToAllOnATwoToOneTaperedTree) {
  for (bool adaptive : {false, true}) {
    PriceModel m(make_rail_fabric(1, 2, 4, 2), adaptive);
    LoadBuilder b(m.fabric);
    const auto loads = collective_loads(m.fabric, Collective::AllToAll, all_hosts(m.fabric), b);
    EXPECT_DOUBLE_EQ(load_on(loads, m.hca_up(0, 0)), 7.0) << adaptive;
    EXPECT_DOUBLE_EQ(load_on(loads, m.cables.reverse(m.hca_up(5, 0))), 7.0) << adaptive;
    for (int up : {5, 6}) EXPECT_DOUBLE_EQ(load_on(loads, m.out_of(m.t.leaves[0][0], up)), 8.0) << adaptive;
    StepTimer timer(m.fabric, capacities(m));
    const double unit = timer.unit_time(loads);
    EXPECT_DOUBLE_EQ(unit, 8.0 / 400);
    const auto t = collective_time(Collective::AllToAll, 8, unit, 1e9);
    EXPECT_DOUBLE_EQ(t.busbw_gbps, 350) << adaptive;
    EXPECT_DOUBLE_EQ(t.seconds, 8.0 / 8 * 8.0 / 400) << adaptive;  // 1/n of 8 Gbit over 400/8 Gb/s
  }
}

// The all-to-all sums senders per leaf; one flow per pair must give the same loads.
TEST(Collectives, TheAllToAllSummedPerLeafEqualsOneFlowPerPair) {
  for (bool adaptive : {false, true}) {
    PriceModel m(make_rail_fabric(2, 3, 3, 2), adaptive);
    const auto hosts = all_hosts(m.fabric);
    LoadBuilder b(m.fabric);
    const auto summed = collective_loads(m.fabric, Collective::AllToAll, hosts, b);
    for (HostId a : hosts)
      for (HostId c : hosts)
        if (a != c)
          for (size_t r = 0; r < 2; ++r) b.add_hosts(a, c, r, 1.0);
    const auto pairs = b.finish();
    ASSERT_EQ(summed.size(), pairs.size()) << adaptive;
    for (size_t i = 0; i < pairs.size(); ++i) {
      EXPECT_EQ(summed[i].first, pairs[i].first);
      EXPECT_NEAR(summed[i].second, pairs[i].second, 1e-9) << m.cables.describe(m.t.fabric, pairs[i].first);
    }
  }
}

TEST(Collectives, TheDoubleBinaryTreeSpansTheHostsTwice) {
  for (size_t n : {2u, 3u, 7u, 8u, 33u}) {
    const auto edges = double_binary_tree(n);
    ASSERT_EQ(edges.size(), 2 * (n - 1));
    for (size_t tree = 0; tree < 2; ++tree) {
      std::vector<int> parents(n, 0);
      for (size_t i = tree * (n - 1); i < (tree + 1) * (n - 1); ++i) ++parents[edges[i].second];
      EXPECT_EQ(std::count(parents.begin(), parents.end(), 0), 1) << "one root, n=" << n;
      EXPECT_EQ(std::count(parents.begin(), parents.end(), 1), static_cast<long>(n - 1)) << n;
    }
  }
}

// A host with one of its 4 HCAs' cables down sends that rail's share over its other 3: its
// ring slows by 4/3 (one of 8 NICs: 8/7, 12.5% off its share).
TEST(Collectives, AHostCableDownMovesItsShareOntoTheHostsOtherCables) {
  PriceModel m(make_rail_fabric(4, 1, 2, 1), false);
  LoadBuilder b(m.fabric);
  const auto loads = collective_loads(m.fabric, Collective::RingAllReduce, all_hosts(m.fabric), b);
  StepTimer timer(m.fabric, capacities(m));
  const routing::EdgeId cable = m.hca_up(0, 1);
  const RateScale down{{cable, 0}, {m.cables.reverse(cable), 0}};
  EXPECT_DOUBLE_EQ(timer.unit_time(loads, &down) / timer.unit_time(loads), 4.0 / 3);
}
