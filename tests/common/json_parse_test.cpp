#include "common/json_parse.h"

#include <gtest/gtest.h>

using namespace ibburn;

namespace {
std::string error_of(const std::string& text, int first_line = 1) {
  try {
    (void)parse_json(text, "f.json", first_line);
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), kExitInput);
    return e.what();
  }
  return "";
}
}  // namespace

TEST(JsonParse, ValidTextParses) {
  EXPECT_EQ(parse_json(R"({"a": [1, 2.5e3]})", "f.json").at("a").at(1).get<double>(), 2500.0);
  EXPECT_FALSE(json_error("{}", "f.json"));
}

TEST(JsonParse, ANumberOutOfRangeNamesItsLineAndField) {
  EXPECT_EQ(error_of("{\"version\": 1,\n \"stages\": [{\"gbps\": 1},\n  {\"name\": \"x\", \"gbps\": 1e999}]}"),
            "f.json:3: stages[1].gbps: number '1e999' is out of range");
  EXPECT_EQ(error_of("[0, [5, -1e999]]"), "f.json:1: [1][1]: number '-1e999' is out of range");
  EXPECT_EQ(error_of("1e999"), "f.json:1: number '1e999' is out of range");
  // A closed object's members are not part of the path of what follows it.
  EXPECT_EQ(error_of(R"({"a": {"b": 1}, "c": 1e400})"), "f.json:1: c: number '1e400' is out of range");
}

TEST(JsonParse, ASyntaxErrorNamesItsLine) {
  EXPECT_EQ(error_of("{\"a\": 1,\n\"b\": ]}"),
            "f.json:2: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a "
            "literal");
  // A JSON Lines reader's line numbers count from the line it passes.
  EXPECT_EQ(error_of("{\"a\": 1e999}", 7), "f.json:7: a: number '1e999' is out of range");
  EXPECT_EQ(error_of("").rfind("f.json:1: invalid JSON: ", 0), 0u);
}
