// `ibburn price` as a site runs it before a maintenance window: a generated rail-optimised fabric
// file, what-ifs, the go/no-go's exit code, and bad input named.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

using namespace ibburn;

namespace {

struct Ran {
  int code;
  std::string out, err;
};

class PriceCli : public ::testing::Test {
 protected:
  void SetUp() override {
    // 2 tiers, 16 hosts of 4 HCAs, radix 16: each rail has 2 leaves of 8 hosts, 8 uplinks each (ports 9-16).
    ASSERT_EQ(ibburn("wiring gen fat-tree --tiers 2 --hosts 16 --hcas-per-host 4 --radix 16 -o " + tmp_.file("f")).code,
              0);
  }
  Ran ibburn(const std::string& args) {
    const std::string cmd = "IBBURN_SITE_CONFIG= " + ibburn::testing::binary_dir() + "/ibburn " + args + " > " +
                            tmp_.file("out") + " 2> " + tmp_.file("err");
    const int rc = std::system(cmd.c_str());
    return {WEXITSTATUS(rc), read_file(tmp_.file("out")), read_file(tmp_.file("err"))};
  }
  std::string price(const std::string& args) {
    return "price --fabric " + tmp_.file("f.net") + " --routing adaptive --json " + tmp_.file("p.json") + " " + args;
  }
  ibburn::testing::TempDir tmp_;
};

}  // namespace

TEST_F(PriceCli, AHostCableOutCostsMoreThanAnUplinkAndFailsTheLimit) {
  Ran r = ibburn(price("--degrade 'host001 mlx5_0[1]=0.25' --degrade 'leaf01[9]=0.25' --max-slowdown 2%"));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NO-GO"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("repair 1: what if host001 mlx5_0[1] is at 25%"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(tmp_.file("p.json")));
  EXPECT_FALSE(j["go"].get<bool>());
  EXPECT_EQ(j["rails"], 4);
  EXPECT_EQ(j["findings"][0]["ports"][0]["node"], "host001 mlx5_0") << j["findings"].dump(1);
  EXPECT_DOUBLE_EQ(j["findings"][0]["slowdown"].get<double>(), 4.0);
  EXPECT_LT(j["findings"][1]["slowdown"].get<double>(), 4.0);
}

TEST_F(PriceCli, OneOfAHostsFourCablesDownCostsItsRingAThird) {
  Ran r = ibburn(price("--down 'host001 mlx5_2[1]' --job-sizes all --max-slowdown 50%"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(read_file(tmp_.file("p.json")));
  for (const auto& c : j["findings"][0]["costs"]) {
    if (c["collective"] == "ring_allreduce") {
      EXPECT_NEAR(c["worst_slowdown"].get<double>(), 4.0 / 3, 1e-9);
    }
  }
  EXPECT_TRUE(j["go"].get<bool>());
}

TEST_F(PriceCli, TheWiringListNamesTheFabricsSwitches) {
  Ran r = ibburn(price("--wiring " + tmp_.file("f.csv") + " --degrade 'leaf01[9]=0.5'"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  r = ibburn(price("--wiring " + tmp_.file("nowhere.csv")));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nowhere.csv"), std::string::npos) << r.err;
}

TEST_F(PriceCli, BadInputIsExit2NamingTheOption) {
  Ran r = ibburn(price("--job-sizes 1000"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--job-sizes"), std::string::npos) << r.err;
  r = ibburn(price("--max-slowdown lots"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-slowdown"), std::string::npos) << r.err;
  r = ibburn(price("--down nowhere[1]"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nowhere"), std::string::npos) << r.err;
  r = ibburn(price("--drain nobody"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nobody"), std::string::npos) << r.err;
}
