// The fixture itself: fabrics come up, commands see them, console commands change them,
// and two fabrics side by side stay apart.
#include "tests/support/sim_fabric.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/support/temp_dir.h"

namespace ibburn::testing {
namespace {
namespace fs = std::filesystem;

// Two switches joined by two cables, two HCAs on each; `tag` makes node names distinct.
std::string write_two_switch_net(const fs::path& dir, const std::string& tag) {
  fs::create_directories(dir);
  const fs::path path = dir / "net";
  std::ofstream out(path);
  out << "switchguid=0x" << tag << "000001\n"
      << "Switch 8 \"" << tag << "-sw1\"\n"
      << "[1] \"" << tag << "-h1\"[1] # lid 0 4xHDR\n"
      << "[2] \"" << tag << "-h2\"[1] # lid 0 4xHDR\n"
      << "[3] \"" << tag << "-sw2\"[3] # lid 0 4xHDR\n"
      << "[4] \"" << tag << "-sw2\"[4] # lid 0 4xHDR\n\n"
      << "switchguid=0x" << tag << "000002\n"
      << "Switch 8 \"" << tag << "-sw2\"\n"
      << "[1] \"" << tag << "-h3\"[1] # lid 0 4xHDR\n"
      << "[2] \"" << tag << "-h4\"[1] # lid 0 4xHDR\n"
      << "[3] \"" << tag << "-sw1\"[3] # lid 0 4xHDR\n"
      << "[4] \"" << tag << "-sw1\"[4] # lid 0 4xHDR\n\n";
  for (int h = 1; h <= 4; ++h) {
    const std::string sw = h <= 2 ? "-sw1" : "-sw2";
    out << "caguid=0x" << tag << "00010" << h << "\n"
        << "Hca 1 \"" << tag << "-h" << h << "\"\n"
        << "[1] \"" << tag << sw << "\"[" << (h - 1) % 2 + 1 << "] # lid 0 4xHDR\n\n";
  }
  return path.string();
}

SimOptions no_sm() {
  SimOptions o;
  o.opensm = false;
  return o;
}

class SimFabricTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm/umad2sim not installed";
  }
  TempDir tmp_;
  const fs::path dir_ = tmp_.path();
};

int count_matches(const std::string& text, const std::string& re) {
  std::regex r(re);
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}

TEST_F(SimFabricTest, DiscoversEveryNodeAndLink) {
  SimFabric fabric(write_two_switch_net(dir_, "aa"), no_sm());
  CommandResult r = fabric.run({"ibnetdiscover"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_matches(r.out, R"(\nSwitch\s+8 )"), 2) << r.out;
  EXPECT_EQ(count_matches(r.out, R"(\nCa\s+1 )"), 4) << r.out;
  EXPECT_EQ(count_matches(r.out, "\"aa-sw2\" lid \\d+ 4xHDR"), 4) << r.out;  // 2 HCAs + 2 ISLs
  EXPECT_NE(r.out.find("\"aa-h4\""), std::string::npos);
}

TEST_F(SimFabricTest, UnlinkRemovesTheLink) {
  SimFabric fabric(write_two_switch_net(dir_, "bb"), no_sm());
  fabric.console("Unlink \"bb-sw1\"[3]");
  CommandResult r = fabric.run({"ibnetdiscover"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // sw1 keeps one of its two switch links; from each side one line is gone.
  EXPECT_EQ(count_matches(r.out, "\\n\\[3\\]\\s+\"S-"), 0) << r.out;
  EXPECT_EQ(count_matches(r.out, "\\n\\[4\\]\\s+\"S-"), 2) << r.out;
  fabric.console("ReLink \"bb-sw1\"[3]");
  r = fabric.run({"ibnetdiscover"});
  EXPECT_EQ(count_matches(r.out, "\\n\\[3\\]\\s+\"S-"), 2) << r.out;
}

TEST_F(SimFabricTest, ConsoleRejectsUnknownNodes) {
  SimFabric fabric(write_two_switch_net(dir_, "cc"), no_sm());
  EXPECT_THROW(fabric.console("Unlink \"no-such-node\"[1]"), std::runtime_error);
  EXPECT_THROW(fabric.console("NoSuchCommand"), std::runtime_error);
  // The console stays usable after a rejected command.
  EXPECT_NO_THROW(fabric.console("Unlink \"cc-h1\"[1]"));
}

TEST_F(SimFabricTest, OpenSmAssignsLidsAndResweeps) {
  SimFabric fabric(write_two_switch_net(dir_, "dd"));
  CommandResult r = fabric.run({"ibnetdiscover"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Every node has a non-zero LID once the fixture says the SM is ready.
  EXPECT_EQ(count_matches(r.out, R"(lid [1-9]\d* lmc)"), 6) << r.out;
  EXPECT_EQ(count_matches(r.out, R"(lid 0 lmc)"), 0) << r.out;

  fabric.console("Unlink \"dd-sw1\"[3]");
  fabric.console("ReLink \"dd-sw1\"[3]");
  fabric.resweep();
  r = fabric.run({"smpquery", "-D", "portinfo", "0,3", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(LinkState:\.*Active)"))) << r.out;
}

TEST_F(SimFabricTest, TwoFabricsDoNotSeeEachOther) {
  SimFabric a(write_two_switch_net(dir_ / "a", "ee"), no_sm());
  SimFabric b(write_two_switch_net(dir_ / "b", "ff"), no_sm());
  EXPECT_NE(a.sockname(), b.sockname());
  CommandResult ra = a.run({"ibnetdiscover"});
  CommandResult rb = b.run({"ibnetdiscover"});
  ASSERT_EQ(ra.exit_code, 0) << ra.err;
  ASSERT_EQ(rb.exit_code, 0) << rb.err;
  EXPECT_NE(ra.out.find("ee-sw1"), std::string::npos);
  EXPECT_EQ(ra.out.find("ff-"), std::string::npos);
  EXPECT_NE(rb.out.find("ff-sw1"), std::string::npos);
  EXPECT_EQ(rb.out.find("ee-"), std::string::npos);
}

TEST_F(SimFabricTest, RunKillsCommandsThatOutliveTheirTimeout) {
  SimFabric fabric(write_two_switch_net(dir_, "a1"), no_sm());
  CommandResult r = fabric.run({"sh", "-c", "sleep 30 & sleep 30"}, std::chrono::seconds(1));
  EXPECT_EQ(r.exit_code, 124);
}

TEST_F(SimFabricTest, DestructorLeavesNoProcessOrDirectory) {
  std::string workdir, marker;
  {
    SimFabric fabric(write_two_switch_net(dir_, "a2"));
    workdir = fabric.workdir();
    marker = "IBSIM_SOCKNAME=" + fabric.sockname() + std::string(1, '\0');
    ASSERT_TRUE(fs::exists(workdir));
  }
  EXPECT_FALSE(fs::exists(workdir));
  // Processes run in our sockname carry it in their environment: none may be left.
  std::string leftover;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::ifstream env(entry.path() / "environ");
    std::string content((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
    if (content.find(marker) != std::string::npos) leftover += entry.path().string() + " ";
  }
  EXPECT_TRUE(leftover.empty()) << leftover;
}

}  // namespace
}  // namespace ibburn::testing
