#include "common/finding.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ibburn;

static Finding make(FindingKind kind, Severity s, std::string node, int port) {
  Finding f;
  f.kind = kind;
  f.severity = s;
  f.message = to_string(f.kind) + (" at " + node);
  f.ports = {{node, port}};
  return f;
}

TEST(Finding, JsonRoundTrip) {
  Finding f = make(FindingKind::Missing, Severity::Error, "leaf1", 3);
  f.details = {{"expected", "spine2[7]"}};
  Finding back = finding_from_json(to_json(f));
  EXPECT_EQ(back.kind, FindingKind::Missing);
  EXPECT_EQ(back.severity, Severity::Error);
  EXPECT_EQ(back.ports, f.ports);
  EXPECT_EQ(back.details["expected"], "spine2[7]");
}

TEST(Finding, SummaryIsWorstFirstWithCounts) {
  std::vector<Finding> v = {make(FindingKind::Degraded, Severity::Warning, "a", 1),
                            make(FindingKind::Split, Severity::Critical, "b", 0),
                            make(FindingKind::Degraded, Severity::Warning, "c", 2)};
  std::ostringstream os;
  print_summary(os, "topo check", v);
  std::string s = os.str();
  EXPECT_NE(s.find("3 findings (1 split, 2 degraded)"), std::string::npos) << s;
  EXPECT_LT(s.find("split:"), s.find("degraded:"));
  EXPECT_EQ(exit_code_for(v), 1);
  EXPECT_EQ(exit_code_for({make(FindingKind::UnusedByRoutes, Severity::Info, "a", 1)}), 0);
}

TEST(Finding, SummaryTruncatesLongKinds) {
  std::vector<Finding> v;
  for (int i = 0; i < 30; ++i) v.push_back(make(FindingKind::Missing, Severity::Error, "n" + std::to_string(i), 1));
  std::ostringstream os;
  print_summary(os, "t", v, 5);
  EXPECT_NE(os.str().find("... and 25 more"), std::string::npos);
}
