// The ibburn binary on the real capture directory and the corpus's switch tools: exit codes
// (1 findings, 2 bad input), the summary and --json.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "capture.h"
#include "common/file_io.h"
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

class HealthCli : public ibburn::testing::CorpusTest {
 protected:
  void SetUp() override {
    CorpusTest::SetUp();
    if (!std::filesystem::exists(kBinary)) GTEST_SKIP() << kBinary << " not built";
  }
  ibburn::testing::TempDir dir_;
};

TEST_F(HealthCli, CaptureDirectoryIsTheUnfinishedUpdate) {
  const std::string capture = std::filesystem::path(ibburn::health::testing::capture_path("x")).parent_path();
  CliRun r = ibburn("health " + capture + " --json " + dir_.file("h.json"));
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("health (3 files: 272 nodes, 510 cable modules"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("7 of 8 Quantum-2 (device 0xd2f2), PSID MT_0000000579, on 31.2012.1024; 1 on 31.2012.1068"),
            std::string::npos)
      << r.out;
  auto j = nlohmann::json::parse(ibburn::read_file(dir_.file("h.json")));
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["kind"], "firmware_mixed");
  EXPECT_EQ(j["sources"]["nodes"], 272);
}

TEST_F(HealthCli, NodeNameMapAndPinsNameAndJudge) {
  const std::string db = ibburn::health::testing::capture_path("ibdiagnet2.db_csv");
  ibburn::write_file_atomic(dir_.file("map"), "0xfc6a1c030091cf00 \"leaf01\"\n");
  ibburn::write_file_atomic(dir_.file("pins"), "MT_0000000579=31.2012.1068\n");
  CliRun r = ibburn("health " + db + " --node-name-map " + dir_.file("map") + " --expect " + dir_.file("pins") +
                    " --json " + dir_.file("h.json"));
  EXPECT_EQ(r.rc, 1) << r.out;
  auto f = nlohmann::json::parse(ibburn::read_file(dir_.file("h.json")))["findings"][0];
  EXPECT_EQ(f["severity"], "error");
  EXPECT_NE(f["details"]["versions"][0]["nodes"].dump().find("leaf01"), std::string::npos) << f.dump();
}

TEST_F(HealthCli, SwitchToolsFilesReportTheFailedFanAndPsuAndTheFirmwareSplit) {
  CliRun r =
      ibburn("health " + ibburn::testing::corpus_path("ibswinfo") + " " + ibburn::testing::corpus_path("mlxlink"));
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("0x1c34da0300010540: fan status ERROR"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PSU1 status OK, DC power ERROR, fan ERROR"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 of 2 MQM8790-HS2F, PSID MT_0000000063, on 27.2010.3118; 1 on 27.2010.4102"),
            std::string::npos)
      << r.out;
}

TEST_F(HealthCli, BadInputExitsTwo) {
  ibburn::write_file_atomic(dir_.file("x.db_csv"), "START_NODES\nNodeGUID,NodeDesc,NodeType\n0x1,a\nEND_NODES\n");
  CliRun r = ibburn("health " + dir_.file("x.db_csv"));
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("x.db_csv:3: NODES row has 2 fields, its header 3"), std::string::npos) << r.out;
  ibburn::write_file_atomic(dir_.file("notes.txt"), "hello\n");
  EXPECT_EQ(ibburn("health " + dir_.file("notes.txt")).rc, 2);
  std::filesystem::create_directory(dir_.file("empty"));
  EXPECT_EQ(ibburn("health " + dir_.file("empty")).rc, 2);
}

}  // namespace
