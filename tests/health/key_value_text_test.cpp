// The settings files' one reader (--expect pins, --thresholds levels) on plain text.
#include "health/key_value_text.h"

#include <gtest/gtest.h>

#include "common/error.h"

using namespace ibburn;
using namespace ibburn::health;

namespace {

TEST(KeyValueText, TrimmedPairsWithTheirLinesCommentsSkipped) {
  const auto kv = parse_key_values("# pins\n\n  MT_1 = 1.2.3  \nswitch_hot_c=75\n", "f", "KEY=value");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv[0].key, "MT_1");
  EXPECT_EQ(kv[0].value, "1.2.3");
  EXPECT_EQ(kv[0].line, 3);
  EXPECT_EQ(kv[1].key, "switch_hot_c");
  EXPECT_EQ(kv[1].line, 4);
}

TEST(KeyValueText, ALineWithoutEqualsOrWithAnEmptySideNamesItsLine) {
  for (const char* text : {"a=1\nno equals\n", "a=1\n=2\n", "a=1\nb=\n"}) {
    try {
      parse_key_values(text, "f", "PSID=version");
      ADD_FAILURE() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "f:2: expected PSID=version") << text;
    }
  }
}

}  // namespace
