// The ibdiagnet captures in the run, on plain data: what the capture after the burn adds, the
// parts named in cables.csv, the verdict they change; then judge_health_capture on the real
// capture (corpus row 18) and on a copy of it made hot in one module.
#include "run/health_evidence.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/file_io.h"
#include "tests/support/corpus.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::run;

namespace {

Finding finding(FindingKind kind, const std::string& message, Severity severity = Severity::Warning) {
  Finding f;
  f.kind = kind;
  f.message = message;
  f.severity = severity;
  return f;
}

TEST(HealthEvidence, AfterTheBurnOnlyWhatTheCaptureBeforeDidNotTell) {
  const std::vector<Finding> before = {finding(FindingKind::FirmwareMixed, "7 of 8 on 1.0; 1 on 1.1")};
  std::vector<Finding> after = {finding(FindingKind::FirmwareMixed, "7 of 8 on 1.0; 1 on 1.1"),
                                finding(FindingKind::ModuleHot, "sw port 3: module at 83 C", Severity::Error)};
  const std::vector<Finding> added = new_after_burn(before, after);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].kind, FindingKind::ModuleHot);
  EXPECT_EQ(added[0].message, "sw port 3: module at 83 C (after the burn)");
}

TEST(HealthEvidence, FindingsOfWarningOrWorseFailTheRun) {
  burn::BurnSummary doc;
  doc.pass = true;
  add_findings(doc, {finding(FindingKind::FirmwareMixed, "x", Severity::Info)});
  EXPECT_TRUE(doc.pass);
  add_findings(doc, {finding(FindingKind::ModuleHot, "y", Severity::Error)});
  EXPECT_FALSE(doc.pass);
  ASSERT_EQ(doc.findings->size(), 2u);
  EXPECT_EQ(doc.findings->front().kind, FindingKind::ModuleHot);  // worst first
}

TEST(HealthEvidence, CableEndsNamedByTheirModules) {
  topo::Fabric f;
  topo::NodeId sw = f.add_node(topo::NodeType::Switch, 0x10, "leaf01", 4);
  topo::NodeId ca = f.add_node(topo::NodeType::CA, 0x20, "h1 mlx5_0", 1);
  f.reset_names_to_descriptions();
  f.connect({sw, 3}, {ca, 1});
  std::vector<CableAction> cables(1);
  cables[0].a = {"h1 mlx5_0", 1};
  cables[0].b = {"leaf01", 3};
  name_module_parts(cables, f, {{{0x10, 3}, "FS OSFP-SR8-800G SN G1"}, {{0x10, 4}, "other"}});
  EXPECT_EQ(cables[0].a_part, "");  // the HCA's end: no module known
  EXPECT_EQ(cables[0].b_part, "FS OSFP-SR8-800G SN G1");
  EXPECT_NE(cables_csv(cables).find(",\"\",\"FS OSFP-SR8-800G SN G1\"\n"), std::string::npos) << cables_csv(cables);
}

TEST(HealthEvidence, HealthFindingsDrainNobody) {
  Finding f = finding(FindingKind::ModuleHot, "h1 mlx5_0 port 1: module at 83 C", Severity::Error);
  f.ports = {{"h1 mlx5_0", 1}};
  EXPECT_TRUE(hosts_to_drain({f}, {{"h1 mlx5_0", "h1"}}, {}).size() == 1);
  f.details["capture"] = "before";
  EXPECT_TRUE(from_health_capture(f));
  EXPECT_TRUE(hosts_to_drain({f}, {{"h1 mlx5_0", "h1"}}, {}).empty());
}

const std::string kCapture = "ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili";

using HealthCapture = ibburn::testing::CorpusTest;

TEST_F(HealthCapture, TheRealCaptureBeforeTheBurn) {
  ibburn::testing::TempDir run;
  HealthCaptures captures("", run.path());
  EXPECT_EQ(captures.judge(ibburn::testing::corpus_path(kCapture), "before"),
            "1 finding(s) from " + ibburn::testing::corpus_path(kCapture));
  ASSERT_EQ(captures.findings().size(), 1u);
  EXPECT_EQ(captures.findings()[0].kind, FindingKind::FirmwareMixed);
  EXPECT_EQ(captures.findings()[0].details["capture"], "before");
  const nlohmann::json j = nlohmann::json::parse(read_file(run.path() + "/health-before.json"));
  EXPECT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["capture"]["when"], "before");
  EXPECT_EQ(j["switch_temperatures"].size(), 9u);
  EXPECT_EQ(j["switch_temperatures"].front()["celsius"], 62.0);  // hottest first
  EXPECT_EQ(j["switch_temperatures"].back()["celsius"], 46.0);
  bool seen = false;
  for (const auto& g : j["firmware"])
    if (g["psid"] == "MT_0000000579") {
      seen = true;
      ASSERT_EQ(g["versions"].size(), 2u);
      EXPECT_EQ(g["versions"][0]["version"], "31.2012.1024");  // oldest first
      EXPECT_EQ(g["versions"][0]["count"], 7);
      EXPECT_EQ(g["versions"][1]["count"], 1);
    }
  EXPECT_TRUE(seen);
  // The modules' parts by GUID and port: the first block of ibdiagnet2.cables.
  std::vector<CableAction> cables(1);
  topo::Fabric f;
  topo::NodeId sw = f.add_node(topo::NodeType::Switch, 0xb0cf0e0300e5b940, "sw", 64);
  topo::NodeId ca = f.add_node(topo::NodeType::CA, 0x1, "ca", 1);
  f.reset_names_to_descriptions();
  f.connect({sw, 1}, {ca, 1});
  cables[0].a = {"sw", 1};
  cables[0].b = {"ca", 1};
  captures.name_parts(cables, f);
  EXPECT_EQ(cables[0].a_part, "FS OSFP-SR8-800G SN G2430283435");
}

TEST_F(HealthCapture, OneModuleHotAfterTheBurnIsTheOnlyNewFinding) {
  ibburn::testing::TempDir run, after;
  // The capture with its first module's reading raised past its 80 C alarm (in a copy).
  std::string cables = read_file(ibburn::testing::corpus_path(kCapture + "/ibdiagnet2.cables"));
  const size_t at = cables.find("Temperature: ");
  ASSERT_NE(at, std::string::npos);
  cables.replace(at, cables.find('\n', at) - at, "Temperature: 83C");
  write_file_atomic(after.path() + "/ibdiagnet2.cables", cables);
  std::filesystem::copy_file(ibburn::testing::corpus_path(kCapture + "/ibdiagnet2.db_csv"),
                             after.path() + "/ibdiagnet2.db_csv");
  HealthCaptures captures("", run.path());
  captures.judge(ibburn::testing::corpus_path(kCapture), "before");
  EXPECT_EQ(captures.judge(after.path(), "after"), "1 finding(s) from " + after.path());
  ASSERT_EQ(captures.after_burn().size(), 1u);
  const Finding& hot = captures.after_burn()[0];
  EXPECT_EQ(hot.kind, FindingKind::ModuleHot);
  EXPECT_EQ(hot.severity, Severity::Error);
  EXPECT_EQ(hot.details["capture"], "after");
  EXPECT_NE(hot.message.find("module FS OSFP-SR8-800G SN G2430283435 at 83 C"), std::string::npos) << hot.message;
  EXPECT_TRUE(hot.message.ends_with("(after the burn)")) << hot.message;
  EXPECT_EQ(captures.findings().size(), 2u);
  EXPECT_TRUE(std::filesystem::exists(run.path() + "/health-after.json"));
}

}  // namespace
