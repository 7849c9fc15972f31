// One cause, one finding: findings most cables of a scope share are one `systemic` finding;
// a few faulty cables stay findings of their own. Plain data: a small rail-optimised tree.
#include "common/systemic_causes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "common/finding_details.h"

using namespace ibburn;
using ::testing::StartsWith;

namespace {

// 16 hosts with two HCAs (rails mlx5_0, mlx5_1); leaf L<r><half>: rail r of hosts 0-7 or 8-15,
// 8 HCA cables each, and 2 cables to each of the spines S0, S1. 32 HCA-leaf cables, 16
// leaf-spine cables, 48 in all.
struct Tree {
  CableScopes scopes;
  std::vector<std::pair<PortRef, PortRef>> hca_cables, up_cables;

  Tree() {
    for (int h = 0; h < 16; ++h)
      for (int r = 0; r < 2; ++r) {
        const std::string leaf = "L" + std::to_string(r) + std::to_string(h / 8);
        PortRef a{"host" + std::to_string(h) + " mlx5_" + std::to_string(r), 1}, b{leaf, h % 8 + 1};
        scopes.add_cable(
            a, b,
            {{ScopeType::Tier, "HCA-leaf"}, {ScopeType::Rail, "mlx5_" + std::to_string(r)}, {ScopeType::Switch, leaf}});
        hca_cables.push_back({a, b});
      }
    for (const char* leaf : {"L00", "L01", "L10", "L11"})
      for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 2; ++k) {
          const std::string spine = "S" + std::to_string(s);
          PortRef a{leaf, 9 + 2 * s + k}, b{spine, static_cast<int>(up_cables.size() / 2 % 8) + 1 + 8 * k};
          scopes.add_cable(a, b,
                           {{ScopeType::Tier, "leaf-spine"}, {ScopeType::Switch, leaf}, {ScopeType::Switch, spine}});
          up_cables.push_back({a, b});
        }
  }
  std::vector<std::pair<PortRef, PortRef>> all() const {
    auto v = hca_cables;
    v.insert(v.end(), up_cables.begin(), up_cables.end());
    return v;
  }
};

Finding degraded(const std::pair<PortRef, PortRef>& c, const std::string& active = "4xHDR") {
  Finding f;
  f.kind = FindingKind::Degraded;
  f.severity = Severity::Error;
  f.message = c.first.node + " - " + c.second.node + " runs at " + active + ", planned 4xNDR";
  f.ports = {c.first, c.second};
  f.details = {{"active", active}, {"planned", "4xNDR"}};
  return f;
}

std::vector<Finding> degraded_all(const std::vector<std::pair<PortRef, PortRef>>& cables) {
  std::vector<Finding> v;
  for (const auto& c : cables) v.push_back(degraded(c));
  return v;
}

std::map<std::string, int> kinds(const std::vector<Finding>& v) {
  std::map<std::string, int> k;
  for (const auto& f : v) ++k[to_string(f.kind)];
  return k;
}

}  // namespace

TEST(SystemicCauses, FabricWideRateIsOneFinding) {
  Tree t;
  auto out = group_systemic_causes(degraded_all(t.all()), t.scopes);
  ASSERT_EQ(out.size(), 1u);
  const Finding& f = out[0];
  EXPECT_EQ(f.kind, FindingKind::Systemic);
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.message,
            "the fabric: all 48 cables run at 4xHDR, the plan says 4xNDR: one cause for the whole fabric (the plan, "
            "the subnet manager, a fabric-wide setting), not 48 cable faults");
  EXPECT_TRUE(f.ports.empty());  // nothing to drain, no cable to service
  EXPECT_EQ(f.details["of_kind"], "degraded");
  EXPECT_EQ(f.details["scope"]["type"], "fabric");
  EXPECT_EQ(f.details["count"], 48);
  ASSERT_EQ(f.details["cables"].size(), 48u);
  EXPECT_EQ(f.details["cables"][0]["kind"], "degraded");
  EXPECT_EQ(f.details["evidence"]["active"], "4xHDR");
}

TEST(SystemicCauses, OneRailIsNamedNotHalfTheTier) {
  Tree t;
  std::vector<std::pair<PortRef, PortRef>> rail1;
  for (const auto& c : t.hca_cables)
    if (c.first.node.ends_with("mlx5_1")) rail1.push_back(c);
  // The rail is half the HCA-leaf tier (which would qualify too) and half of each of its two
  // leaves: the rail, all of whose cables differ, is the cause.
  auto out = group_systemic_causes(degraded_all(rail1), t.scopes);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].details["scope"]["type"], "rail");
  EXPECT_EQ(out[0].details["scope"]["name"], "mlx5_1");
  EXPECT_THAT(out[0].message, StartsWith("rail mlx5_1: all 16 HCA cables run at 4xHDR, the plan says 4xNDR"));
}

TEST(SystemicCauses, OneSwitchsPorts) {
  Tree t;
  std::vector<Finding> in;
  for (const auto& c : t.all())
    if (c.first.node == "L10" || c.second.node == "L10") in.push_back(degraded(c));
  ASSERT_EQ(in.size(), 12u);
  auto out = group_systemic_causes(in, t.scopes);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].details["scope"]["type"], "switch");
  EXPECT_EQ(out[0].details["scope"]["name"], "L10");
  EXPECT_EQ(out[0].ports, (std::vector<PortRef>{{"L10", 0}}));
  EXPECT_EQ(out[0].details["count"], 12);
}

TEST(SystemicCauses, ATierBeforeItsSwitches) {
  Tree t;
  // Every spine's cables differ too, as fully as the tier: the wider scope names the cause.
  auto out = group_systemic_causes(degraded_all(t.up_cables), t.scopes);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].details["scope"]["type"], "tier");
  EXPECT_EQ(out[0].details["scope"]["name"], "leaf-spine");
  EXPECT_THAT(out[0].message,
              StartsWith("the leaf-spine tier: all 16 leaf-spine cables run at 4xHDR, the plan says 4xNDR"));
}

TEST(SystemicCauses, AFewDegradedCablesStayFindingsOfTheirOwn) {
  Tree t;
  auto in = degraded_all({t.hca_cables[0], t.hca_cables[2], t.up_cables[5]});
  auto out = group_systemic_causes(in, t.scopes);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(kinds(out), (std::map<std::string, int>{{"degraded", 3}}));
  EXPECT_EQ(out[0].message, in[0].message);
}

TEST(SystemicCauses, OtherDifferencesAndOtherFindingsAreKept) {
  Tree t;
  // The fabric at HDR, three cables at 1x on top, and findings that are not about one cable.
  std::vector<Finding> in = degraded_all(t.all());
  for (size_t i : {1, 7, 30}) in[i] = degraded(t.all()[i], "1xHDR");
  Finding swapped;
  swapped.kind = FindingKind::Swapped;
  swapped.ports = {t.hca_cables[3].first, t.hca_cables[3].second, t.hca_cables[4].first, t.hca_cables[4].second};
  in.push_back(swapped);
  Finding node;
  node.kind = FindingKind::MissingNode;
  node.ports = {{"S1", 0}};
  in.push_back(node);
  auto out = group_systemic_causes(in, t.scopes);
  // 45 of 48 at 4xHDR still is most of the fabric.
  EXPECT_EQ(kinds(out),
            (std::map<std::string, int>{{"degraded", 3}, {"missing_node", 1}, {"swapped", 1}, {"systemic", 1}}));
  for (const auto& f : out) {
    if (f.kind == FindingKind::Systemic) {
      EXPECT_THAT(f.message, StartsWith("the fabric: 45 of 48 cables run "));
    }
  }
}

TEST(SystemicCauses, TheRulesShareAndMinimumAreTheCutOff) {
  Tree t;
  // 11 of L00's 12 cables are most of L00; asking 95% of a scope, or 12 cables at least, the
  // same findings stay single.
  std::vector<Finding> in;
  for (const auto& c : t.all())
    if ((c.first.node == "L00" || c.second.node == "L00") && in.size() < 11) in.push_back(degraded(c));
  EXPECT_EQ(group_systemic_causes(in, t.scopes).size(), 1u);
  EXPECT_EQ(group_systemic_causes(in, t.scopes, {0.95, 8}).size(), 11u);
  EXPECT_EQ(group_systemic_causes(in, t.scopes, {0.5, 12}).size(), 11u);
}

TEST(SystemicCauses, ACableCountsOnceWhateverTheStages) {
  Tree t;
  // Errors under load on 8 of L01's 12 cables in each of two stages: 8 cables, not 16.
  std::vector<Finding> in;
  for (int stage = 1; stage <= 2; ++stage)
    for (const auto& c : t.all())
      if ((c.first.node == "L01" || c.second.node == "L01") && in.size() < static_cast<size_t>(8 * stage)) {
        Finding f;
        f.kind = FindingKind::ErrorsUnderLoad;
        f.ports = {c.first, c.second};
        f.details = ErrorsUnderLoadDetails{.stage = stage, .rise = {{"PortRcvErrors", 10u + stage}}};
        in.push_back(f);
      }
  ASSERT_EQ(in.size(), 16u);
  auto out = group_systemic_causes(in, t.scopes);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].details["count"], 8);
  EXPECT_EQ(out[0].details["cables"].size(), 16u);
  EXPECT_THAT(out[0].message,
              StartsWith("switch L01: 8 of 12 cables with PortRcvErrors rising under load: one cause at the switch"));
}
