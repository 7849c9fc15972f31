// `report DIR` past its argument parsing (report/report_command.h): the fabric for the map comes
// from the one fabric source, node-name-map included.
#include "report/report_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include "burn/summary.h"
#include "common/error.h"
#include "common/file_io.h"
#include "plan/burn_command.h"
#include "topo/fabric_io.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;

namespace {

class ReportRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    // Two hosts on one switch, burned through the fluid model for a run directory.
    topo::Fabric f;
    topo::NodeId sw = f.add_node(topo::NodeType::Switch, 0x1000, "generic switch", 8);
    for (int i = 0; i < 2; ++i) {
      topo::NodeId h = f.add_node(topo::NodeType::CA, 0x2000 + i, "host" + std::to_string(i) + " mlx5_0", 1);
      f.connect({sw, i + 1}, {h, 1});
      f.port({sw, i + 1}).active = f.port({h, 1}).active = {topo::Width::X4, topo::Speed::HDR};
    }
    fabric_ = dir_ + "/fabric.json";
    topo::save_fabric_file(f, fabric_);
    burn::BurnOptions o;
    o.transport = burn::TransportKind::Sim;
    o.out_dir = dir_ + "/run";
    o.quiet = true;
    o.duration = std::chrono::milliseconds(10);
    plan::BurnRouteOptions r;
    r.routes.fabric.files = {fabric_};
    r.routes.routing = "adaptive";
    ASSERT_EQ(plan::burn_command(o, r), 0);
  }
  ibburn::testing::TempDir tmp_;
  std::string dir_, fabric_;
};

TEST_F(ReportRun, NodeNameMapNamesTheSwitchesOfTheMap) {
  report::ReportCommandOptions o;
  o.dir = dir_ + "/run";
  o.html = dir_ + "/report.html";
  o.with_fabric = true;
  o.fabric.files = {fabric_};
  std::ostringstream err;
  ASSERT_EQ(report::report_command(o, err), 0);
  EXPECT_EQ(read_file(o.html).find("spine-named-by-map"), std::string::npos);
  o.fabric.node_name_map = dir_ + "/map";
  write_file_atomic(o.fabric.node_name_map, "0x1000 \"spine-named-by-map\"\n");
  ASSERT_EQ(report::report_command(o, err), 0);
  EXPECT_NE(read_file(o.html).find("spine-named-by-map"), std::string::npos);
}

TEST_F(ReportRun, WithoutAFabricThereIsNoMapAndNoDiscovery) {
  report::ReportCommandOptions o;
  o.dir = dir_ + "/run";
  o.html = dir_ + "/report.html";
  o.prometheus = dir_ + "/ibburn.prom";
  std::ostringstream err;
  // with_fabric false: an empty source would mean live discovery, which must not happen here.
  EXPECT_EQ(report::report_command(o, err), 0);
  EXPECT_TRUE(std::filesystem::exists(o.html));
  EXPECT_TRUE(std::filesystem::exists(o.prometheus));
}

// A run killed before its first summary leaves results.jsonl (the run header) and no summary:
// INCOMPLETE, exit 1, never PASS.
TEST_F(ReportRun, RunFilesWithoutASummaryAreIncomplete) {
  const std::string killed = dir_ + "/killed";
  std::filesystem::create_directories(killed);
  std::filesystem::copy_file(dir_ + "/run/results.jsonl", killed + "/results.jsonl");
  report::ReportCommandOptions o;
  o.dir = killed;
  o.html = dir_ + "/killed.html";
  o.prometheus = dir_ + "/killed.prom";
  std::ostringstream err;
  EXPECT_EQ(report::report_command(o, err), 1);
  EXPECT_NE(err.str().find("report: " + killed + ": INCOMPLETE: no summary.json"), std::string::npos) << err.str();
  const std::string html = read_file(o.html);
  EXPECT_NE(html.find(R"(class="verdict incomplete" id="verdict">INCOMPLETE<)"), std::string::npos);
  EXPECT_EQ(html.find("PASS"), std::string::npos);
  EXPECT_NE(read_file(o.prometheus).find("ibburn_run_incomplete 1\n"), std::string::npos);
}

// A summary that still says running (the run died mid-stage) is INCOMPLETE with what it
// measured, although every flow it measured passed.
TEST_F(ReportRun, RunningSummaryIsIncomplete) {
  const std::string summary = dir_ + "/run/summary.json";
  burn::BurnSummary s = burn::load_summary(summary);
  ASSERT_TRUE(s.pass);
  s.complete = false;
  burn::write_summary(summary, s);
  report::ReportCommandOptions o;
  o.dir = dir_ + "/run";
  o.html = dir_ + "/running.html";
  std::ostringstream err;
  EXPECT_EQ(report::report_command(o, err), 1);
  EXPECT_NE(err.str().find(": INCOMPLETE: summary.json says running: 1 of 1 planned stage(s) measured; 0 finding(s)"),
            std::string::npos)
      << err.str();
  const std::string html = read_file(o.html);
  EXPECT_NE(html.find(">INCOMPLETE<"), std::string::npos);
  EXPECT_NE(html.find("Per-endpoint bandwidth (2 endpoints)"), std::string::npos);  // what it measured
}

TEST_F(ReportRun, DirectoryWithoutARunIsBadInput) {
  report::ReportCommandOptions o;
  o.dir = dir_ + "/empty";
  std::filesystem::create_directories(o.dir);
  std::ostringstream err;
  try {
    report::report_command(o, err);
    FAIL() << "rendered an empty directory";
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), kExitInput);
    EXPECT_EQ(std::string(e.what()),
              o.dir + ": no run here: none of summary.json, results.jsonl, topo.json, counters.json, host-*.json");
  }
}

// A damaged or hand-edited file whose number reads 1e999: bad input (exit 2) naming the file,
// the line and the field, from every JSON file of the run directory.
TEST_F(ReportRun, ANumberOutOfRangeIsBadInputNamingTheFileAndField) {
  report::ReportCommandOptions o;
  o.dir = dir_ + "/run";
  const auto error_of = [&] {
    std::ostringstream err;
    try {
      report::report_command(o, err);
    } catch (const InputError& e) {
      EXPECT_EQ(e.code(), kExitInput);
      return std::string(e.what());
    }
    return std::string("rendered");
  };
  const std::string summary = o.dir + "/summary.json", results = o.dir + "/results.jsonl";
  const std::string good_summary = read_file(summary), good_results = read_file(results);
  // summary.json (written indented): its first top-level number.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(good_summary, m, std::regex("\n  \"([a-z_]+)\": (-?[0-9][0-9.e+-]*)")));
  const long line = 2 + std::count(good_summary.begin(), good_summary.begin() + m.position(0), '\n');
  write_file_atomic(summary, m.prefix().str() + "\n  \"" + m[1].str() + "\": 1e999" + m.suffix().str());
  EXPECT_EQ(error_of(), summary + ":" + std::to_string(line) + ": " + m[1].str() + ": number '1e999' is out of range");
  write_file_atomic(summary, good_summary);
  // results.jsonl: the run header (line 1) and a stage's line.
  for (const int lineno : {1, 2}) {
    std::istringstream in(good_results);
    std::string text, l;
    for (int n = 1; std::getline(in, l); ++n) {
      if (n == lineno)
        l = std::regex_replace(l, std::regex(":[0-9]+\\.?[0-9]*([,}])"), ":1e999$1",
                               std::regex_constants::format_first_only);
      text += l + "\n";
    }
    ASSERT_NE(text, good_results);
    write_file_atomic(results, text);
    const std::string e = error_of();
    EXPECT_EQ(e.rfind(results + ":" + std::to_string(lineno) + ": ", 0), 0u) << e;
    EXPECT_NE(e.find(": number '1e999' is out of range"), std::string::npos) << e;
  }
}

}  // namespace

// With a history the page shows the nights recorded so far, this one last; a job that already
// recorded itself (`ibburn run`) shows its database's nights without recording again.
TEST_F(ReportRun, HistoryPutsTheNightsSideBySide) {
  report::ReportCommandOptions o;
  o.dir = dir_ + "/run";
  o.html = dir_ + "/report.html";
  o.history = dir_ + "/history.sqlite";
  std::ostringstream err;
  ASSERT_EQ(report::report_command(o, err), 0);
  EXPECT_NE(read_file(o.html).find("Nights side by side (the last 1)"), std::string::npos);
  ASSERT_EQ(report::report_command(o, err), 0);
  const std::string page = read_file(o.html);
  EXPECT_NE(page.find("Nights side by side (the last 2)"), std::string::npos);
  EXPECT_NE(page.find("<th>golden set</th>"), std::string::npos);
  o.nights = o.history;
  o.history.clear();
  ASSERT_EQ(report::report_command(o, err), 0);
  EXPECT_NE(read_file(o.html).find("Nights side by side (the last 2)"), std::string::npos);
}
