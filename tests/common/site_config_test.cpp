#include "common/site_config.h"

#include <gtest/gtest.h>

#include <functional>

#include "common/error.h"

using namespace ibburn;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), kExitInput);
    return e.what();
  }
  return "";
}

const OptionTable kOptions{{"run", {"wiring", "max-drain", "node-name-map"}},
                           {"topo check", {"wiring", "node-name-map"}},
                           {"counters", {"thresholds"}}};
}  // namespace

TEST(SiteConfig, ReadsKeysSectionsCommentsAndQuotes) {
  const auto e = parse_site_config(
      "# site options\n"
      "wiring = /etc/ibburn/wiring.csv\n"
      "\n"
      "  ; also a comment\n"
      "--node-name-map=\"/etc/ibburn/map file\"  # trailing\n"
      "[run]\n"
      "max-drain = 2%\n"
      "[topo.check]\n"
      "wiring = other.csv\n",
      "site.conf");
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].key, "wiring");
  EXPECT_EQ(e[0].value, "/etc/ibburn/wiring.csv");
  EXPECT_EQ(e[0].where(), "site.conf:2");
  EXPECT_EQ(e[1].key, "node-name-map");
  EXPECT_EQ(e[1].value, "/etc/ibburn/map file");
  EXPECT_EQ(e[2].command, "run");
  EXPECT_EQ(e[2].value, "2%");
  EXPECT_EQ(e[3].command, "topo check");
  EXPECT_EQ(e[3].line, 9);
}

TEST(SiteConfig, MalformedLinesNameTheFileAndLine) {
  EXPECT_EQ(error_of([] { parse_site_config("wiring = a\nmax-drain 2%\n", "s.conf"); }),
            "s.conf:2: expected 'option = value', got 'max-drain 2%'");
  EXPECT_EQ(error_of([] { parse_site_config("[run\n", "s.conf"); }),
            "s.conf:1: expected a section such as [run] or [topo check], got '[run'");
  EXPECT_EQ(error_of([] { parse_site_config(" = 3\n", "s.conf"); }), "s.conf:1: no option name before '='");
}

TEST(SiteConfig, UnknownKeysAndCommandsNameTheFileAndLine) {
  const auto check = [](const std::string& text) {
    return error_of([&] { check_site_config(parse_site_config(text, "s.conf"), kOptions); });
  };
  EXPECT_EQ(check("wiring = a\n"), "");
  EXPECT_EQ(check("wiring = a\nmax-drian = 2\n"), "s.conf:2: 'max-drian' is not an option of any ibburn command");
  EXPECT_EQ(check("[burn]\nwiring = a\n"), "s.conf:2: [burn] is not an ibburn command");
  EXPECT_EQ(check("[counters]\nwiring = a\n"), "s.conf:2: 'wiring' is not an option of 'ibburn counters'");
}

// Later files override earlier ones; within a file the command's section beats its top part;
// options the command lacks and other commands' sections are left out.
TEST(SiteConfig, EachOptionTakesTheLastLayersEntry) {
  auto layers = parse_site_config(
      "wiring = etc.csv\nmax-drain = 5%\nthresholds = t\n[run]\nmax-drain = 2%\n[topo check]\nwiring = check.csv\n",
      "etc.conf");
  auto taken = entries_for(layers, "run", kOptions.at("run"));
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken.at("max-drain").value, "2%");
  EXPECT_EQ(taken.at("wiring").value, "etc.csv");
  EXPECT_EQ(entries_for(layers, "topo check", kOptions.at("topo check")).at("wiring").value, "check.csv");

  for (auto& e : parse_site_config("max-drain = 10\n", "mine.conf")) layers.push_back(e);
  taken = entries_for(layers, "run", kOptions.at("run"));
  EXPECT_EQ(taken.at("max-drain").value, "10");
  EXPECT_EQ(taken.at("max-drain").where(), "mine.conf:1");
}
