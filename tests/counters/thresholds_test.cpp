#include "counters/thresholds.h"

#include <gtest/gtest.h>

#include "common/error.h"

using namespace ibburn;
using namespace ibburn::counters;

TEST(Thresholds, DefaultsAreTheShippedSuggestions) {
  Thresholds t = Thresholds::defaults();
  EXPECT_EQ(t.get(Counter::SymbolErrorCounter), 10u);
  EXPECT_EQ(t.get(Counter::PortRcvRemotePhysicalErrors), 100u);
  EXPECT_EQ(t.get(Counter::LocalLinkIntegrityErrors), 10u);
  EXPECT_EQ(t.get(Counter::VL15Dropped), 100u);
  EXPECT_EQ(t.get(Counter::PortXmitWait), 1000u);
}

TEST(Thresholds, ParsesTheShippedFileFormatAndReplacesDefaults) {
  Thresholds t = Thresholds::parse(
      "# Define error thresholds here\n\n#SymbolErrorCounter=10\n"
      "SymbolErrorCounter=5\n  PortXmitWait = 0x100 \r\nLinkDownedCounter=0\n",
      "th");
  EXPECT_EQ(t.get(Counter::SymbolErrorCounter), 5u);
  EXPECT_EQ(t.get(Counter::PortXmitWait), 256u);
  EXPECT_EQ(t.get(Counter::LinkDownedCounter), 0u);
  // Unnamed counters fall to 0 as in ibqueryerrors, so both tools agree on one file.
  EXPECT_EQ(t.get(Counter::PortRcvErrors), 0u);
  EXPECT_TRUE(t.exceeded(Counter::SymbolErrorCounter, 6));
  EXPECT_FALSE(t.exceeded(Counter::SymbolErrorCounter, 5));  // strictly greater
}

TEST(Thresholds, RoundTripsThroughText) {
  Thresholds t = Thresholds::defaults();
  Thresholds u = Thresholds::parse(t.to_text(), "x");
  for (size_t i = 0; i < kErrorCounterCount; ++i)
    EXPECT_EQ(t.get(counter_at(i)), u.get(counter_at(i))) << counter_name(counter_at(i));
}

static std::string error_of(const std::string& text) {
  try {
    Thresholds::parse(text, "th.conf");
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), kExitInput);
    return e.what();
  }
  return "";
}

TEST(Thresholds, MalformedLinesNameFileAndLine) {
  EXPECT_EQ(error_of("SymbolErrorCounter=1\nbogus line\n"), "th.conf:2: expected Name=value, got 'bogus line'");
  EXPECT_NE(error_of("# c\nSymbolErrors=3\n").find("th.conf:2: unknown counter 'SymbolErrors'"), std::string::npos);
  EXPECT_NE(error_of("PortRcvErrors=ten\n").find("th.conf:1: threshold for PortRcvErrors"), std::string::npos);
  EXPECT_NE(error_of("PortRcvErrors=-1\n").find("th.conf:1:"), std::string::npos);
  EXPECT_NE(error_of("PortRcvErrors=\n").find("th.conf:1:"), std::string::npos);
  // Data counters exist but ibqueryerrors does not threshold them.
  EXPECT_NE(error_of("PortXmitData=1\n").find("unknown counter"), std::string::npos);
}
