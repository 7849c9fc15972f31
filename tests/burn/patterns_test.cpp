#include <gtest/gtest.h>

#include <map>
#include <set>

#include "burn/stage_plan.h"
#include "common/error.h"

using namespace ibburn;
using namespace ibburn::burn;

TEST(Patterns, PairsMatchesHalves) {
  Plan p = make_pattern("pairs", 8, 4);
  ASSERT_EQ(p.stages.size(), 1u);
  ASSERT_EQ(p.stages[0].flows.size(), 4u);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(p.stages[0].flows[r], (Flow{r, r + 4, true, 4}));
  EXPECT_THROW(make_pattern("pairs", 5, 1), InputError);
}

TEST(Patterns, ShiftSendsToRPlusK) {
  Plan p = make_pattern("shift:3", 6, 1);
  ASSERT_EQ(p.stages.size(), 3u);
  for (int k = 1; k <= 3; ++k) {
    const auto& flows = p.stages[k - 1].flows;
    ASSERT_EQ(flows.size(), 6u);
    std::multiset<int> receivers;
    for (const auto& f : flows) {
      EXPECT_EQ(f.dst, (f.src + k) % 6);
      EXPECT_FALSE(f.bidirectional);
      receivers.insert(f.dst);
    }
    EXPECT_EQ(receivers, (std::multiset<int>{0, 1, 2, 3, 4, 5}));  // everyone receives once
  }
  EXPECT_THROW(make_pattern("shift:6", 6, 1), InputError);
  EXPECT_THROW(make_pattern("shift:0", 6, 1), InputError);
  EXPECT_THROW(make_pattern("shift:x", 6, 1), InputError);
  EXPECT_THROW(make_pattern("shift:2x", 6, 1), InputError);
}

void check_round_robin(int n) {
  Plan p = make_pattern("one-to-one", n, 2);
  const int rounds = n % 2 ? n : n - 1;
  ASSERT_EQ(static_cast<int>(p.stages.size()), rounds);
  std::map<std::pair<int, int>, int> met;
  for (const auto& s : p.stages) {
    std::set<int> busy;
    for (const auto& f : s.flows) {
      EXPECT_TRUE(busy.insert(f.src).second) << "rank twice in a round";
      EXPECT_TRUE(busy.insert(f.dst).second) << "rank twice in a round";
      EXPECT_LT(f.src, f.dst);
      EXPECT_TRUE(f.bidirectional);
      ++met[{f.src, f.dst}];
    }
    EXPECT_EQ(static_cast<int>(busy.size()), n % 2 ? n - 1 : n);
  }
  EXPECT_EQ(static_cast<int>(met.size()), n * (n - 1) / 2);  // every pair exactly once
  for (const auto& [pair, count] : met) EXPECT_EQ(count, 1);
}

TEST(Patterns, OneToOneMeetsEveryPairOnce) {
  for (int n : {2, 3, 4, 5, 8, 9, 16}) check_round_robin(n);
}

TEST(Patterns, UnknownPatternIsInputError) {
  try {
    make_pattern("ring", 4, 1);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--pattern"), std::string::npos);
  }
}
