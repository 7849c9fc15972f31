#include "burn/transport_opts.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/exit_codes.h"

using ibburn::burn::parse_transport_opts;

TEST(TransportOpts, SplitsAtTheFirstEqualsAndLaterKeysWin) {
  auto m = parse_transport_opts({"qps=2", "gid=fe80::1=x", "qps=4", "flag="});
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(m["qps"], "4");
  EXPECT_EQ(m["gid"], "fe80::1=x");
  EXPECT_EQ(m["flag"], "");
}

TEST(TransportOpts, EntryWithoutKeyOrEqualsIsAUsageError) {
  for (const char* bad : {"qps", "=2"}) {
    try {
      parse_transport_opts({"tx_depth=64", bad});
      FAIL() << bad;
    } catch (const ibburn::Error& e) {
      EXPECT_EQ(e.code(), ibburn::kExitInput);
      EXPECT_EQ(std::string(e.what()), std::string("--opt expects KEY=VALUE, got \"") + bad + "\"");
    }
  }
}
