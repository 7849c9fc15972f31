// `ibburn host check` end to end through the binary: exit codes, summary and --json.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/host/sysfs_fixture.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

namespace {

const std::string kBinary = ibburn::testing::binary_dir() + "/ibburn";

struct CliRun {
  int rc = -1;
  std::string out;  // stdout and stderr
};

CliRun ibburn(const std::string& args) {
  CliRun r;
  FILE* p = ::popen((kBinary + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class HostCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kBinary)) GTEST_SKIP() << kBinary << " not built";
  }
  ibburn::testing::TempDir dir_;
};

TEST_F(HostCli, FixtureWithAnX8HcaExitsOneAndWritesJson) {
  auto s = ibburn::host::fixture::dgx_h100();
  s.function(ibburn::host::fixture::hca_bdf(3)).width = 8;
  std::string root = dir_.path() + "/sys";
  std::filesystem::create_directories(root);
  ibburn::host::fixture::write_sysfs(s, root);
  std::string json = dir_.path() + "/host.json";
  CliRun r = ibburn("host check --sysfs-root " + root + " --json " + json);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("8 GPUs, 8 HCAs, 8 GPU-HCA pairs (8 PIX)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pcie_degraded"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mlx5_3"), std::string::npos) << r.out;
  std::ifstream in(json);
  ASSERT_TRUE(in) << json;
  nlohmann::json j = nlohmann::json::parse(in);
  for (const char* key : {"findings", "gpus", "hcas", "pairing"}) EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["pairing"].size(), 8u);
  // A fixture is not the live system: neither its kernel log nor dma-buf can be read.
  EXPECT_EQ(j["peer_memory"]["dmabuf"], "unknown");
}

TEST_F(HostCli, BadInputExitsTwoNamingTheFile) {
  std::string expect = dir_.path() + "/site.expect";
  std::ofstream(expect) << "gpus=8\nnics=8\n";
  CliRun r = ibburn("host check --sysfs-root " + dir_.path() + " --expect " + expect);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find(expect + ":2: unknown key 'nics'"), std::string::npos) << r.out;
  r = ibburn("host check --sysfs-root " + dir_.path() + "/absent");
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("no such sysfs directory"), std::string::npos) << r.out;
  EXPECT_EQ(ibburn("host check --bogus").rc, 2);
}

// This machine's real /sys: no GPUs and no HCAs here, so "nothing to check" and exit 0.
TEST_F(HostCli, RealSysfsWithoutGpusOrHcasHasNothingToCheck) {
  CliRun r = ibburn("host check --json " + dir_.path() + "/live.json");
  std::ifstream in(dir_.path() + "/live.json");
  ASSERT_TRUE(in) << r.out;
  nlohmann::json j = nlohmann::json::parse(in);
  if (!j["gpus"].empty() || !j["hcas"].empty()) GTEST_SKIP() << "this machine has GPUs or HCAs";
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("nothing to check"), std::string::npos) << r.out;
  EXPECT_EQ(j["findings"][0]["kind"], "nothing_to_check");
}

}  // namespace
