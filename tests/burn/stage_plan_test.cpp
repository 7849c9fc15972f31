#include <gtest/gtest.h>

#include "burn/stage_plan.h"
#include "common/error.h"

using namespace ibburn;
using namespace ibburn::burn;
using nlohmann::json;

TEST(Plan, ParsesStagesAndDefaults) {
  json j = json::parse(R"({"version":1,"name":"x","stages":[
    {"name":"a","flows":[{"src":0,"dst":3,"streams":2},{"src":1,"dst":2,"bidirectional":false}]},
    {"flows":[{"src":3,"dst":0}]}]})");
  Plan p = plan_from_json(j, 4, "p.json");
  ASSERT_EQ(p.stages.size(), 2u);
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.stages[0].name, "a");
  EXPECT_EQ(p.stages[1].name, "stage 2");
  EXPECT_EQ(p.stages[0].flows[0], (Flow{0, 3, true, 2}));
  EXPECT_EQ(p.stages[0].flows[1], (Flow{1, 2, false, 0}));
}

TEST(Plan, RoundTripsThroughJson) {
  Plan p = make_pattern("shift:2", 5, 3);
  Plan q = plan_from_json(to_json(p), 5, "x");
  ASSERT_EQ(q.stages.size(), p.stages.size());
  for (std::size_t i = 0; i < p.stages.size(); ++i) EXPECT_EQ(q.stages[i].flows, p.stages[i].flows);
}

void expect_input_error(const std::string& text, int ranks, const std::string& needle) {
  try {
    plan_from_json(json::parse(text), ranks, "plan.json");
    FAIL() << "accepted: " << text;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), kExitInput);
  }
}

TEST(Plan, RejectsBadPlansNamingStageAndFlow) {
  expect_input_error(R"({"stages":[{"flows":[{"src":0,"dst":9}]}]})", 8, "stage 1 flow 1: dst 9 >= 8 ranks");
  expect_input_error(R"({"stages":[{"flows":[{"src":0,"dst":1}]},{"flows":[{"src":2,"dst":2}]}]})", 8,
                     "stage 2 flow 1: src and dst are both 2");
  expect_input_error(R"({"stages":[{"flows":[{"src":-1,"dst":1}]}]})", 8, "src -1 < 0");
  expect_input_error(R"({"stages":[{"flows":[{"dst":1}]}]})", 8, "missing \"src\"");
  expect_input_error(R"({"stages":[{"flows":[{"src":"0","dst":1}]}]})", 8, "not an integer");
  expect_input_error(R"({"stages":[]})", 8, "non-empty");
  expect_input_error(R"({"stages":[{"flows":[]}]})", 8, "stage 1: no flows");
  expect_input_error(R"({"version":2,"stages":[{"flows":[{"src":0,"dst":1}]}]})", 8, "version");
  expect_input_error(R"({"stages":[{"flows":[{"src":0,"dst":1,"bidirectional":1}]}]})", 8, "bidirectional");
  expect_input_error(R"([1,2])", 8, "JSON object");
}

TEST(Plan, LoadNamesFileOnSyntaxError) {
  try {
    load_plan("/nonexistent/plan.json", 2);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/plan.json"), std::string::npos);
  }
}
