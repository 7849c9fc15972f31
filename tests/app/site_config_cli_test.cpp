// The site's option files as the ibburn binary reads them (app/site_options.h): the site file
// ($IBBURN_SITE_CONFIG stands in for /etc/ibburn/ibburn.conf), then --config, then the command
// line; bad lines and values are exit 2 naming the file and line.
#include <gtest/gtest.h>

#include <cstdlib>

#include "common/file_io.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

using namespace ibburn;

namespace {
struct Ran {
  int code;
  std::string out, err;
};

class SiteConfigCli : public ::testing::Test {
 protected:
  // `ibburn ARGS` with the site file `site` ("" for none).
  Ran ibburn(const std::string& args, const std::string& site) {
    const std::string cmd = "IBBURN_SITE_CONFIG='" + site + "' " + ibburn::testing::binary_dir() + "/ibburn " + args +
                            " > " + tmp_.file("out") + " 2> " + tmp_.file("err");
    const int rc = std::system(cmd.c_str());
    return {WEXITSTATUS(rc), read_file(tmp_.file("out")), read_file(tmp_.file("err"))};
  }
  std::string file(const std::string& name, const std::string& text) {
    write_file_atomic(tmp_.file(name), text);
    return tmp_.file(name);
  }
  ibburn::testing::TempDir tmp_;
};
}  // namespace

// A site file's option is the command's default; --config overrides it; the command line
// overrides both.
TEST_F(SiteConfigCli, FilesThenConfigThenTheCommandLine) {
  const std::string site = file("site.conf", "# site\n[wiring gen fat-tree]\nhost-prefix = gpu\ntiers = 2\n");
  const std::string mine = file("mine.conf", "[wiring.gen.fat-tree]\nhost-prefix = node\n");
  const std::string gen = "wiring gen fat-tree --hosts 8 --hcas-per-host 1 --radix 8 -o " + tmp_.file("w");
  Ran r = ibburn(gen, site);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(read_file(tmp_.file("w.csv")).find("gpu001"), std::string::npos);
  r = ibburn(gen + " --config " + mine, site);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(read_file(tmp_.file("w.csv")).find("node001"), std::string::npos);
  r = ibburn(gen + " --config=" + mine + " --host-prefix rack", site);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(read_file(tmp_.file("w.csv")).find("rack001"), std::string::npos);

  // `config show` says where each value came from.
  r = ibburn("config show wiring gen fat-tree --config " + mine, site);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("host-prefix = node  # " + mine + ":2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tiers = 2  # " + site + ":4\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("radix = 64  # default\n"), std::string::npos) << r.out;
  r = ibburn("config show", site);
  EXPECT_NE(r.out.find("[wiring gen fat-tree] host-prefix = gpu  # " + site + ":3\n"), std::string::npos) << r.out;
}

TEST_F(SiteConfigCli, BadLinesAndValuesAreExitTwoNamingTheFileAndLine) {
  const std::string gen = "wiring gen fat-tree --hosts 8 -o " + tmp_.file("w");
  Ran r = ibburn(gen, file("a.conf", "tiers = 2\nmax-drian = 2%\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a.conf:2: 'max-drian' is not an option of any ibburn command"), std::string::npos) << r.err;
  // A value the option's own check refuses.
  r = ibburn("run --transport sim --help", file("b.conf", "[run]\nmax-ber = -1\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("b.conf:2: --max-ber: "), std::string::npos) << r.err;
  // A value the command reads after parsing (a count or a share of hosts).
  r = ibburn("run --transport sim --out " + tmp_.file("run"), file("c.conf", "\n[run]\n\nmax-drain = lots\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("c.conf:4: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("max-drain"), std::string::npos) << r.err;
  // A site file named but missing.
  r = ibburn(gen, tmp_.file("absent.conf"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("absent.conf"), std::string::npos) << r.err;
}
