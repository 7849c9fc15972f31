#include "counters/counter_delta.h"

#include <gtest/gtest.h>

#include "counters/counter_check.h"

using namespace ibburn;
using namespace ibburn::counters;

namespace {
PortSample sample(uint64_t guid, int port, uint64_t sym, uint64_t xmit_words, uint64_t rcv_words) {
  PortSample p;
  p.node = "n" + std::to_string(guid);
  p.node_guid = guid;
  p.port = port;
  p.reachable = true;
  p.counters.set(Counter::SymbolErrorCounter, sym, 16);
  p.counters.set(Counter::PortXmitData, xmit_words, 64);
  p.counters.set(Counter::PortRcvData, rcv_words, 64);
  return p;
}
}  // namespace

TEST(CounterDelta, RisePerHourAndPerTerabyte) {
  Snapshot a, b;
  a.time_ms = 0;
  b.time_ms = 2 * 3600 * 1000;  // two hours later
  a.ports = {sample(1, 1, 100, 0, 0)};
  // 0.25e12 words each way = 2e12 octets moved.
  b.ports = {sample(1, 1, 140, 250000000000ull, 250000000000ull)};
  auto d = compute_deltas(a, b);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].delta.get(Counter::SymbolErrorCounter), 40u);
  EXPECT_DOUBLE_EQ(d[0].hours, 2.0);
  EXPECT_DOUBLE_EQ(d[0].per_hour(Counter::SymbolErrorCounter), 20.0);
  ASSERT_TRUE(d[0].per_terabyte(Counter::SymbolErrorCounter));
  EXPECT_DOUBLE_EQ(*d[0].per_terabyte(Counter::SymbolErrorCounter), 20.0);
  EXPECT_FALSE(d[0].reset);
}

TEST(CounterDelta, ClearedCountersAndUnmatchedPorts) {
  Snapshot a, b;
  a.time_ms = 0;
  b.time_ms = 1000;
  a.ports = {sample(1, 1, 500, 10, 10), sample(2, 1, 0, 0, 0)};
  b.ports = {sample(1, 1, 3, 20, 20), sample(3, 1, 0, 0, 0)};
  auto d = compute_deltas(a, b);
  ASSERT_EQ(d.size(), 1u);  // only port (1,1) is in both
  EXPECT_TRUE(d[0].reset);
  EXPECT_EQ(d[0].delta.get(Counter::SymbolErrorCounter), 3u);  // counted since the clear
}

TEST(CounterDelta, ThresholdsApplyToTheRiseNotTheTotal) {
  Snapshot a, b;
  a.time_ms = 0;
  b.time_ms = 3600 * 1000;
  // Port 1: huge but old total, small rise. Port 2: small total, rise above threshold.
  a.ports = {sample(1, 1, 60000, 0, 0), sample(1, 2, 0, 0, 0)};
  b.ports = {sample(1, 1, 60005, 0, 0), sample(1, 2, 11, 0, 0)};
  auto findings = check_deltas(b, compute_deltas(a, b), Thresholds::defaults());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::Errors);
  EXPECT_EQ(findings[0].ports[0].port, 2);
  EXPECT_EQ(findings[0].details["counters"]["SymbolErrorCounter"]["rise"], 11);
  EXPECT_DOUBLE_EQ(findings[0].details["counters"]["SymbolErrorCounter"]["per_hour"].get<double>(), 11.0);
  EXPECT_FALSE(findings[0].details["counters"]["SymbolErrorCounter"].contains("per_terabyte"));
}

// Two switches sharing a node GUID (a fault topo check reports as duplicate_guid): each port's
// rise is its own, matched in sweep order, never one port's old value against the other's new.
TEST(CounterDelta, PortsOfTwoNodesSharingAGuidStayApart) {
  Snapshot a, b;
  a.time_ms = 0;
  b.time_ms = 1000;
  a.ports = {sample(7, 1, 1000, 0, 0), sample(7, 1, 5, 0, 0)};
  b.ports = {sample(7, 1, 1000, 0, 0), sample(7, 1, 9, 0, 0)};
  auto d = compute_deltas(a, b);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].delta.get(Counter::SymbolErrorCounter), 0u);
  EXPECT_EQ(d[1].delta.get(Counter::SymbolErrorCounter), 4u);
  EXPECT_FALSE(d[0].reset || d[1].reset);
}
