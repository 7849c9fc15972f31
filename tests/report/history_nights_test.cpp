#include <gtest/gtest.h>

#include "report/history_nights.h"

using namespace ibburn::report;

namespace {
Observation seen(const std::string& kind, const std::string& subject) {
  return {kind, subject, "counters", "", "", ""};
}
Observation bad(const std::string& kind, const std::string& subject, const std::string& finding) {
  return {kind, subject, "counters", finding, "error", finding};
}
const std::string kCable = "host001 mlx5_0[1] - leaf01[1]", kOther = "leaf01[33] - spine01[1]";
}  // namespace

// Three nights: the host cable fails nights 1 and 3 (errors, then errors twice), the uplink is
// not exercised in night 2 and fine otherwise; night 2 did not finish.
TEST(ReportHistoryNights, CablesNightByNightChangesAndGolden) {
  std::vector<NightRun> runs(3);
  runs[0] = {1,
             "n1",
             100,
             "fail",
             {seen("host", "host001"), bad("cable", kCable, "errors_under_load"), seen("cable", kOther),
              seen("switch", "leaf01"), seen("switch", "spine01")}};
  runs[1] = {2,
             "n2",
             200,
             "incomplete",
             {seen("cable", kCable), bad("cable", kOther, "not_exercised"), seen("host", "host002")}};
  runs[2] = {3,
             "n3",
             300,
             "fail",
             {bad("cable", kCable, "errors_under_load"), bad("cable", kCable, "errors"), seen("cable", kOther),
              bad("host", "host003", "pcie_degraded"), seen("switch", "leaf01")}};
  const Nights n = nights_side_by_side(runs);
  ASSERT_EQ(n.runs.size(), 3u);
  EXPECT_TRUE(n.runs[0].observations.empty());
  ASSERT_EQ(n.cables.size(), 2u);
  EXPECT_EQ(n.cables[0].cable, kCable);  // two nights with findings
  EXPECT_EQ(n.cables[0].findings, (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(n.cables[0].last_full_load, 2);  // errors, but loaded
  EXPECT_EQ(n.cables[1].cable, kOther);
  EXPECT_EQ(n.cables[1].findings, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(n.cables[1].last_full_load, 2);

  EXPECT_EQ(n.new_findings, (std::vector<std::string>{"cable " + kCable + ": errors", "host host003: pcie_degraded"}));
  EXPECT_EQ(n.recurring, (std::vector<std::string>{"cable " + kCable + ": errors_under_load"}));
  EXPECT_EQ(n.gone, (std::vector<std::string>{"cable " + kOther + ": not_exercised"}));
  // Night 1: host001, the uplink, leaf01, spine01; night 2 (unfinished) makes nothing golden and
  // takes the uplink out; night 3 sees no new fine subject.
  EXPECT_EQ(n.golden, (std::vector<size_t>{4, 3, 3}));

  runs.resize(2);
  const Nights two = nights_side_by_side(runs);
  EXPECT_EQ(two.cables[1].last_full_load, 0);  // night 2 did not load it (and did not finish)
}

// Partial allocations: night 1 loads one half's cable, night 2 the other's and names night 1's
// untested; a third cable no night loaded. The coverage says when each last carried a load.
TEST(ReportHistoryNights, CoverageAddsUpOverPartialNights) {
  const std::string half2 = "host003 mlx5_0[1] - leaf02[1]", uplink = "leaf01[33] - spine01[1]";
  std::vector<NightRun> runs(2);
  runs[0] = {1, "n1", 100, "pass", {seen("cable", kCable)}};
  runs[1] = {2, "n2", 200, "pass", {seen("cable", half2)}};
  const Nights n = nights_side_by_side(runs, 200, {kCable, uplink});
  EXPECT_TRUE(n.cables.empty());  // no cable had a finding
  EXPECT_EQ(n.coverage.cables, 3u);
  EXPECT_EQ(n.coverage.loaded_latest, 1u);
  EXPECT_EQ(n.coverage.loaded_earlier, 1u);
  ASSERT_EQ(n.coverage.stale.size(), 2u);
  EXPECT_EQ(n.coverage.stale[0].cable, uplink);  // never loaded first
  EXPECT_EQ(n.coverage.stale[0].last_full_load, -1);
  EXPECT_EQ(n.coverage.stale[1].cable, kCable);
  EXPECT_EQ(n.coverage.stale[1].last_full_load, 0);

  const Nights one = nights_side_by_side(runs, 1, {kCable, uplink});
  EXPECT_EQ(one.coverage.stale.size(), 1u);
  EXPECT_EQ(one.coverage.stale_left_out, 1u);
}
