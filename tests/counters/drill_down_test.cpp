// The error sweep's drill-down decision on plain switch totals.
#include <gtest/gtest.h>

#include "counters/drill_down.h"

using namespace ibburn::counters;

namespace {

// Totals as a PortCounters answer fills them: every error counter read, all zero.
CounterValues clean_totals() {
  CounterValues v;
  for (size_t i = 0; i <= static_cast<size_t>(Counter::QP1Dropped); ++i)
    v.set(counter_at(i), 0, port_counters_bits(counter_at(i)));
  return v;
}

}  // namespace

TEST(DrillDown, CleanTotalsProveNoPortIsFlagged) {
  EXPECT_FALSE(totals_need_drill_down(clean_totals(), Thresholds::defaults()));
}

TEST(DrillDown, TotalsAtTheThresholdCannotHideAFlaggedPort) {
  CounterValues v = clean_totals();
  Thresholds t = Thresholds::defaults();
  v.set(Counter::SymbolErrorCounter, t.get(Counter::SymbolErrorCounter), 16);
  EXPECT_FALSE(totals_need_drill_down(v, t));  // each port <= the sum <= the threshold
  v.set(Counter::SymbolErrorCounter, t.get(Counter::SymbolErrorCounter) + 1, 16);
  EXPECT_TRUE(totals_need_drill_down(v, t));  // one port may hold all of it
}

TEST(DrillDown, AnyErrorCounterAboveItsThresholdDrills) {
  Thresholds t = Thresholds::zero();
  for (size_t i = 0; i < kErrorCounterCount; ++i) {
    CounterValues v = clean_totals();
    v.set(counter_at(i), 1, port_counters_bits(counter_at(i)));
    EXPECT_TRUE(totals_need_drill_down(v, t)) << counter_name(counter_at(i));
  }
}

TEST(DrillDown, SaturatedTotalsAreDrilledEvenUnderAHighThreshold) {
  Thresholds t = Thresholds::defaults();
  t.set(Counter::PortXmitWait, UINT64_MAX);
  CounterValues v = clean_totals();
  v.set(Counter::PortXmitWait, 0xFFFFFFFF, 32);  // a capped sum may hide a pinned port
  EXPECT_TRUE(totals_need_drill_down(v, t));
  v.set(Counter::PortXmitWait, 0xFFFFFFFE, 32);
  EXPECT_FALSE(totals_need_drill_down(v, t));
}

TEST(DrillDown, PinnedQp1DroppedDrillsThoughItHasNoThreshold) {
  CounterValues v = clean_totals();
  v.set(Counter::QP1Dropped, 1000, 16);
  EXPECT_FALSE(totals_need_drill_down(v, Thresholds::zero()));
  v.set(Counter::QP1Dropped, 0xFFFF, 16);
  EXPECT_TRUE(totals_need_drill_down(v, Thresholds::zero()));
}

TEST(DrillDown, TotalsNotReadDrill) {
  CounterValues v = clean_totals();
  v.bits[static_cast<size_t>(Counter::LinkDownedCounter)] = 0;
  EXPECT_TRUE(totals_need_drill_down(v, Thresholds::defaults()));
  EXPECT_TRUE(totals_need_drill_down(CounterValues{}, Thresholds::defaults()));
}

TEST(DrillDown, DataCountersDoNotDrill) {
  CounterValues v = clean_totals();
  v.set(Counter::PortXmitData, 0xFFFFFFFF, 32);  // pinned 32-bit data: read as 64-bit elsewhere
  EXPECT_FALSE(totals_need_drill_down(v, Thresholds::zero()));
}
