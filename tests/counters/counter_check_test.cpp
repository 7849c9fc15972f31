#include "counters/counter_check.h"

#include "common/error.h"

#include <gtest/gtest.h>

using namespace ibburn;
using namespace ibburn::counters;

namespace {

PortSample port(const std::string& node, int num, uint64_t guid = 0x10) {
  PortSample p;
  p.node = node;
  p.port = num;
  p.node_guid = guid;
  p.lid = 7;
  p.reachable = true;
  for (size_t i = 0; i < kCounterCount; ++i) {
    Counter c = counter_at(i);
    if (port_counters_bits(c)) p.counters.set(c, 0, port_counters_bits(c));
  }
  return p;
}

std::vector<Finding> of_kind(const std::vector<Finding>& all, const std::string& kind) {
  std::vector<Finding> out;
  for (const auto& f : all)
    if (to_string(f.kind) == kind) out.push_back(f);
  return out;
}

}  // namespace

TEST(Saturation, EachWidthHasItsOwnMaximum) {
  CounterValues v;
  v.set(Counter::SymbolErrorCounter, 0xFFFF, 16);
  v.set(Counter::LinkDownedCounter, 0xFF, 8);
  v.set(Counter::LocalLinkIntegrityErrors, 0xF, 4);
  v.set(Counter::PortXmitWait, 0xFFFFFFFF, 32);
  v.set(Counter::PortRcvErrors, 0xFFFE, 16);
  v.set(Counter::ExcessiveBufferOverrunErrors, 0xE, 4);
  v.set(Counter::PortXmitData, 0xFFFFFFFFFFFFFFFF, 64);  // 64-bit: never "pinned"
  EXPECT_TRUE(v.saturated(Counter::SymbolErrorCounter));
  EXPECT_TRUE(v.saturated(Counter::LinkDownedCounter));
  EXPECT_TRUE(v.saturated(Counter::LocalLinkIntegrityErrors));
  EXPECT_TRUE(v.saturated(Counter::PortXmitWait));
  EXPECT_FALSE(v.saturated(Counter::PortRcvErrors));
  EXPECT_FALSE(v.saturated(Counter::ExcessiveBufferOverrunErrors));
  EXPECT_FALSE(v.saturated(Counter::PortXmitData));
  EXPECT_FALSE(v.saturated(Counter::VL15Dropped));  // not read at all
  // 0xFF in a 16-bit counter is just a value.
  v.set(Counter::VL15Dropped, 0xFF, 16);
  EXPECT_FALSE(v.saturated(Counter::VL15Dropped));
}

TEST(CounterCheck, FlagsExactlyThePortsAboveThreshold) {
  Snapshot s;
  s.ports = {port("sw1", 1), port("sw1", 2), port("host1 mlx5_0", 1, 0x20)};
  s.ports[1].counters.set(Counter::SymbolErrorCounter, 11, 16);
  s.ports[1].peer = PortRef{"host1 mlx5_0", 1};
  s.ports[2].counters.set(Counter::PortXmitWait, 1000, 32);  // equal: not above
  s.ports[0].counters.set(Counter::SymbolErrorCounter, 10, 16);
  auto findings = check_snapshot(s, Thresholds::defaults());
  auto errors = of_kind(findings, "errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "sw1[2]: SymbolErrorCounter 11 > 10");
  ASSERT_EQ(errors[0].ports.size(), 2u);
  EXPECT_EQ(errors[0].ports[0], (PortRef{"sw1", 2}));
  EXPECT_EQ(errors[0].ports[1], (PortRef{"host1 mlx5_0", 1}));
  EXPECT_EQ(errors[0].details["counters"]["SymbolErrorCounter"]["value"], 11);
  EXPECT_TRUE(of_kind(findings, "saturated").empty());
  EXPECT_EQ(exit_code_for(findings), 1);
}

TEST(CounterCheck, SaturatedAndUnreachablePorts) {
  Snapshot s;
  s.ports = {port("sw1", 1), port("sw1", 2)};
  s.ports[0].counters.set(Counter::PortXmitWait, 0xFFFFFFFF, 32);
  s.ports[1].reachable = false;
  s.ports[1].error = "timeout after 4 tries of 200 ms";
  auto findings = check_snapshot(s, Thresholds::zero());
  auto sat = of_kind(findings, "saturated");
  ASSERT_EQ(sat.size(), 1u);
  EXPECT_EQ(sat[0].ports[0], (PortRef{"sw1", 1}));
  EXPECT_EQ(sat[0].severity, Severity::Warning);
  auto unr = of_kind(findings, "unreachable");
  ASSERT_EQ(unr.size(), 1u);
  EXPECT_EQ(unr[0].ports[0], (PortRef{"sw1", 2}));
  EXPECT_NE(unr[0].message.find("timeout after 4 tries"), std::string::npos);
  // The unreachable port is never judged on counters it does not have.
  auto errors = of_kind(findings, "errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].ports[0], (PortRef{"sw1", 1}));
}

TEST(CounterCheck, CleanFabricHasNoFindings) {
  Snapshot s;
  s.ports = {port("sw1", 1), port("sw1", 2)};
  EXPECT_TRUE(check_snapshot(s, Thresholds::defaults()).empty());
}
