// The host preflight inside the burn: one rank per host checks it before stage 1; a host
// with errors is refused (its ranks take no part) unless --force. The host is a fixture
// sysfs tree of an 8-GPU / 8-HCA server (tests/host/sysfs_fixture.h) standing in for /sys.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "burn_run.h"
#include "tests/host/sysfs_fixture.h"

using namespace burntest;
using nlohmann::json;
namespace fx = ibburn::host::fixture;

namespace {

class BurnPreflight : public MpiRunTest {
 protected:
  // A 2-rank TCP burn on loopback with `server` as the host's /sys.
  int burn(const fx::ServerSpec& server, const std::string& extra = "") {
    fx::write_sysfs(server, sysfs_.path());
    return run_burn(2, "--pattern pairs --duration 1s --streams 1 --expect-gbps 0.01 --host-sysfs-root " +
                           sysfs_.path() + " " + extra);
  }
  double measured_bytes() {
    double bytes = 0;
    for (auto& l : read_jsonl(dir_ + "/results.jsonl"))
      if (l.at("type") == "stage")
        for (const auto& f : l.at("flows"))
          for (const auto& d : f.at("directions")) bytes += d.at("bytes").get<double>();
    return bytes;
  }
  fx::ServerSpec hca_at_x8() {
    auto s = fx::dgx_h100();
    s.function(fx::hca_bdf(3)).width = 8;
    s.function(fx::hca_port_bdf(3)).width = 8;
    return s;
  }
  ibburn::testing::TempDir sysfs_;
};

}  // namespace

TEST_F(BurnPreflight, HealthyHostRunsAndItsCheckIsInTheSummary) {
  ASSERT_EQ(burn(fx::dgx_h100()), 0) << log();
  json s = read_json(dir_ + "/summary.json");
  ASSERT_EQ(s.at("host_checks").size(), 1u) << s.dump(1);  // one rank per host checked it
  const auto& h = s.at("host_checks")[0];
  EXPECT_EQ(h.at("ok"), true) << h.dump(1);
  EXPECT_EQ(h.at("refused"), false);
  EXPECT_EQ(h.at("pairing").size(), 8u);  // GPUn with mlx5_n: each HCA's default GPU
  EXPECT_EQ(h.at("pairing")[3].at("hca"), "mlx5_3");
  EXPECT_EQ(h.at("pairing")[3].at("gpu_bdf"), fx::gpu_bdf(3));
  EXPECT_GT(measured_bytes(), 0);
}

TEST_F(BurnPreflight, FailingHostIsRefusedAndNamed) {
  ASSERT_EQ(burn(hca_at_x8()), 1) << log();
  json s = read_json(dir_ + "/summary.json");
  const auto& h = s.at("host_checks")[0];
  EXPECT_EQ(h.at("ok"), false);
  EXPECT_EQ(h.at("refused"), true);
  ASSERT_EQ(s.at("lost_ranks").size(), 2u) << s.dump(1);
  for (const auto& l : s.at("lost_ranks"))
    EXPECT_NE(l.at("reason").get<std::string>().find("refused: host check failed"), std::string::npos) << l;
  EXPECT_NE(log().find("host check failed on"), std::string::npos) << log();
  EXPECT_NE(log().find("mlx5_3"), std::string::npos) << log();  // the finding names the HCA
  EXPECT_EQ(measured_bytes(), 0);
  EXPECT_EQ(s.at("verdict"), "fail");
}

TEST_F(BurnPreflight, ForceRunsTheFailingHostWithWarnings) {
  ASSERT_EQ(burn(hca_at_x8(), "--force"), 1) << log();  // warnings are findings: exit 1
  json s = read_json(dir_ + "/summary.json");
  const auto& h = s.at("host_checks")[0];
  EXPECT_EQ(h.at("ok"), false);
  EXPECT_EQ(h.at("refused"), false);
  EXPECT_TRUE(s.at("lost_ranks").empty()) << s.dump(1);
  EXPECT_GT(measured_bytes(), 0);
  EXPECT_NE(log().find("--force: running anyway"), std::string::npos) << log();
  EXPECT_NE(log().find("[warning]"), std::string::npos) << log();  // the host errors, downgraded
}

TEST_F(BurnPreflight, NoHostCheckSkipsIt) {
  ASSERT_EQ(burn(hca_at_x8(), "--no-host-check"), 0) << log();
  EXPECT_TRUE(read_json(dir_ + "/summary.json").at("host_checks").empty());
}

TEST_F(BurnPreflight, OnlyTheFailingHostIsRefused) {
  // Two "hosts" on this machine: ranks 0-1 named hosta, ranks 2-3 hostb, each in its own UTS
  // namespace; hostb's /sys has an HCA at x8. One-to-one rounds: the round pairing 0 with 1
  // runs on hosta, everything touching hostb is refused.
  if (std::system("unshare --uts true >/dev/null 2>&1") != 0) GTEST_SKIP() << "no UTS namespaces here";
  ibburn::testing::TempDir roots;
  std::filesystem::create_directories(roots.path() + "/hosta");
  std::filesystem::create_directories(roots.path() + "/hostb");
  fx::write_sysfs(fx::dgx_h100(), roots.path() + "/hosta");
  fx::write_sysfs(hca_at_x8(), roots.path() + "/hostb");
  const std::string burn_cmd = ibburn_path() + " burn --out " + dir_ +
                               " --pattern one-to-one --duration 1s --streams 1 --expect-gbps 0.01 --host-sysfs-root " +
                               roots.path() + "/{host}";
  auto l = start_mpirun(
      4, "h=host$(echo ab | cut -c$((OMPI_COMM_WORLD_RANK / 2 + 1))); exec unshare --uts sh -c \"hostname $h && exec " +
             burn_cmd + "\"");
  ASSERT_EQ(wait_mpirun(l), 1) << log();
  json s = read_json(dir_ + "/summary.json");
  ASSERT_EQ(s.at("host_checks").size(), 2u) << s.dump(1);
  for (const auto& h : s.at("host_checks")) EXPECT_EQ(h.at("refused"), h.at("host") == "hostb") << h.dump();
  ASSERT_EQ(s.at("lost_ranks").size(), 2u) << s.dump(1);
  for (const auto& r : s.at("lost_ranks")) {
    EXPECT_EQ(r.at("host"), "hostb");
    EXPECT_GE(r.at("rank").get<int>(), 2);
  }
  EXPECT_GT(measured_bytes(), 0);  // hosta's own round ran
  int hosta_directions = 0;
  for (const auto& f : s.at("flows")) {
    if (f.at("from").get<int>() >= 2 || f.at("to").get<int>() >= 2) continue;
    ++hosta_directions;
    EXPECT_EQ(f.at("verdict"), "pass") << f.dump();
  }
  EXPECT_EQ(hosta_directions, 2);  // 0 -> 1 and 1 -> 0
}
