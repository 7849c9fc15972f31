// The model's port counters and the job's localisation from them, on plain data: a fat tree
// in memory under adaptive routing with one leaf uplink at 25%.
#include "run/counter_localization.h"

#include <gtest/gtest.h>

#include "fluid/fluid.h"
#include "plan/simulate.h"
#include "run/modelled_counters.h"
#include "tests/routing/fat_tree_fixture.h"

namespace ibburn::run {
namespace {

class CounterLocalizationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ft_ = routing::fixture::make_fat_tree(4, 4, 2, 2);
    m_.fabric = ft_.fabric;
    m_.cables = std::make_unique<routing::CableIndex>(m_.fabric, 0);
    m_.router = std::make_unique<routing::AdaptiveRouter>(m_.fabric, *m_.cables);
    bad_ = m_.cables->out_edge({ft_.leaves[0], 5});  // leaf0's first uplink
    std::unordered_map<routing::EdgeId, double> degrade{{bad_, 0.25}, {m_.cables->reverse(bad_), 0.25}};
    capacity_ = fluid::degraded_capacities(*m_.cables, degrade);
  }
  // Every host sends to the host 5 further on, at the max-min rates of the adaptive model.
  std::vector<double> stage_gbps() const {
    std::vector<fluid::SplitFlow> flows;
    const size_t n = ft_.hosts.size();
    for (size_t i = 0; i < n; ++i)
      flows.push_back(fluid::split_flow(*m_.cables, *m_.router, {ft_.hosts[i], 1}, {ft_.hosts[(i + 5) % n], 1}));
    return fluid::simulate_max_min(flows, *m_.router, capacity_, fluid::Splits::Adaptive).edge_gbps;
  }
  routing::fixture::FatTree ft_;
  routing::RouteModel m_;
  routing::EdgeId bad_ = 0;
  std::vector<double> capacity_;
};

TEST_F(CounterLocalizationTest, OnlyASaturatedPortBelowItsNominalRateWaits) {
  std::vector<double> gbps(m_.cables->size(), 0.0);
  const routing::EdgeId healthy = m_.cables->out_edge({ft_.leaves[0], 6});
  const routing::EdgeId spare = m_.cables->out_edge({ft_.leaves[0], 7});
  gbps[bad_] = capacity_[bad_];
  gbps[healthy] = capacity_[healthy];
  gbps[spare] = capacity_[spare] / 2;
  std::map<std::pair<routing::EdgeId, bool>, PortRise> rise;  // (edge, at its egress end)
  for (const auto& r : modelled_rises(m_, capacity_, gbps, 2.0))
    for (routing::EdgeId e : {bad_, healthy, spare})
      if (r.port == m_.cables->edge(e).from || r.port == m_.cables->edge(e).to)
        rise[{e, r.port == m_.cables->edge(e).from}] = r;
  EXPECT_EQ(rise.at({bad_, true}).xmit_wait, static_cast<uint64_t>(0.75 * 2.0 * kModelWaitTicksPerSecond));
  EXPECT_EQ(rise.at({healthy, true}).xmit_wait, 0u);
  EXPECT_EQ(rise.at({spare, true}).xmit_wait, 0u);
  const auto words = static_cast<uint64_t>(capacity_[bad_] * 1e9 / 8 * 2.0 / 4);
  EXPECT_EQ(rise.at({bad_, true}).xmit_words, words);
  EXPECT_EQ(rise.at({bad_, false}).rcv_words, words);
}

TEST_F(CounterLocalizationTest, TheModelsCountersNameTheSlowCableOnceAndExplainItsShortfall) {
  ModelledCounters model(m_, capacity_);
  const counters::Snapshot before = model.snapshot();
  model.add(stage_gbps(), 1.0);
  const counters::Snapshot after = model.snapshot();
  CounterLocalization loc(m_);
  ASSERT_TRUE(loc.judges());
  loc.add_stage(counters::compute_deltas(before, after), 1);
  const auto found = loc.findings();
  ASSERT_EQ(found.size(), 1u);  // both directions of the cable are one finding
  EXPECT_EQ(found[0].kind, FindingKind::SuspectCable);
  EXPECT_EQ(found[0].severity, Severity::Error);
  EXPECT_EQ(found[0].details["source"], "port counters");
  const std::set<routing::EdgeId> both{bad_, m_.cables->reverse(bad_)};
  EXPECT_EQ(loc.named(), both);
  Finding own, other;
  own.kind = other.kind = FindingKind::NotExercised;
  own.ports = {{"spine0", 1}, {"leaf0", 5}};
  other.ports = {{"leaf1", 5}, {"spine0", 3}};
  std::vector<Finding> coverage{own, other};
  loc.explain_shortfalls(coverage);
  ASSERT_EQ(coverage.size(), 1u);
  EXPECT_EQ(coverage[0].ports, other.ports);
  EXPECT_EQ(coverage[0].severity, Severity::Warning);
}

TEST_F(CounterLocalizationTest, StaticRoutesAreNotJudged) {
  m_.lfts = ft_.lfts;
  m_.router = std::make_unique<routing::LftRouter>(m_.fabric, *m_.cables, *m_.lfts);
  EXPECT_FALSE(CounterLocalization(m_).judges());
}

}  // namespace
}  // namespace ibburn::run
