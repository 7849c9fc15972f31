// `ibburn run --transport sim` over the real ibdiagnet capture (corpus row 18) as its fabric and
// as `--ibdiagnet`: the capture's firmware mix is in the run's one verdict, drains nobody, and
// its switch temperatures and firmware groups are in the run directory for the page.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "tests/support/corpus.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

namespace ibburn {
namespace {

using RunHealth = ibburn::testing::CorpusTest;

TEST_F(RunHealth, TheCapturesFindingsJoinTheVerdict) {
  ibburn::testing::TempDir tmp;
  const std::string capture = ibburn::testing::corpus_path("ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili");
  const std::string out = tmp.file("run");
  const std::string cmd = ibburn::testing::binary_dir() +
                          "/ibburn run --transport sim --routing adaptive --duration 1ms --quiet" + " --fabric '" +
                          capture + "' --ibdiagnet '" + capture + "' --out '" + out + "' >" + tmp.file("stdout") +
                          " 2>" + tmp.file("stderr");
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << read_file(tmp.file("stderr"));
  const nlohmann::json summary = nlohmann::json::parse(read_file(out + "/summary.json"));
  EXPECT_EQ(summary["verdict"], "fail");
  size_t health = 0;
  for (const auto& f : summary["findings"])
    if (f["details"].contains("capture")) {
      ++health;
      EXPECT_EQ(f["kind"], "firmware_mixed");
      EXPECT_EQ(f["details"]["capture"], "before");
    }
  EXPECT_EQ(health, 1u) << summary["findings"].dump(1);
  EXPECT_EQ(read_file(out + "/drain.txt"), "");
  const nlohmann::json data = nlohmann::json::parse(read_file(out + "/health-before.json"));
  EXPECT_EQ(data["switch_temperatures"].size(), 9u);
  EXPECT_FALSE(data["firmware"].empty());
  // The job's steps (--quiet prints none) hold the capture's.
  bool step = false;
  for (const auto& st : summary["job"]["steps"]) step = step || st["name"] == "health before";
  EXPECT_TRUE(step) << summary["job"].dump();
}

TEST_F(RunHealth, ABadCaptureStopsTheJobAsBadInput) {
  ibburn::testing::TempDir tmp;
  make_dirs(tmp.file("cap"));
  write_file_atomic(tmp.file("cap/ibdiagnet2.db_csv"), "START_NODES\nNodeGUID,NodeDesc,NodeType\n0x1,a\nEND_NODES\n");
  const std::string fabric = ibburn::testing::corpus_path("ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili");
  const std::string cmd = ibburn::testing::binary_dir() +
                          "/ibburn run --transport sim --routing adaptive --duration 1ms --quiet" + " --fabric '" +
                          fabric + "' --ibdiagnet '" + tmp.file("cap") + "' --out '" + tmp.file("run") + "' >" +
                          tmp.file("stdout") + " 2>" + tmp.file("stderr");
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(read_file(tmp.file("stderr")).find("ibdiagnet2.db_csv:3: NODES row has 2 fields, its header 3"),
            std::string::npos)
      << read_file(tmp.file("stderr"));
}

}  // namespace
}  // namespace ibburn
