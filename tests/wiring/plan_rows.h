#pragma once
// Test helper: a wiring plan as a set of canonical rows, so that plans compare as sets.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {

using PlanRow = std::tuple<std::string, int, std::string, int, std::string>;  // a, port, b, port, rate

// Ends in name order; rate "any" when unplanned; `as_simulated` maps rates to what ibsim
// simulates (NDR -> HDR).
inline std::set<PlanRow> plan_rows(const Wiring& w, bool as_simulated = false) {
  std::set<PlanRow> out;
  for (const Cable& c : w.cables) {
    CableEnd a = c.a, b = c.b;
    if (std::tie(b.node, b.port) < std::tie(a.node, a.port)) std::swap(a, b);
    std::string rate = !c.rate ? "any" : topo::to_string(as_simulated ? ibsim_rate(*c.rate) : *c.rate);
    EXPECT_TRUE(out.emplace(a.node, a.port, b.node, b.port, rate).second) << "cable listed twice";
  }
  return out;
}

inline std::string to_string(const PlanRow& r) {
  return std::get<0>(r) + "[" + std::to_string(std::get<1>(r)) + "]-" + std::get<2>(r) + "[" +
         std::to_string(std::get<3>(r)) + "] " + std::get<4>(r);
}

// Fails the test for every row in one set and not the other.
inline void expect_same_plan(const std::set<PlanRow>& want, const std::set<PlanRow>& got) {
  EXPECT_EQ(got.size(), want.size());
  for (const PlanRow& r : want)
    if (!got.count(r)) ADD_FAILURE() << "missing: " << to_string(r);
  for (const PlanRow& r : got)
    if (!want.count(r)) ADD_FAILURE() << "extra: " << to_string(r);
}

}  // namespace ibburn::wiring
