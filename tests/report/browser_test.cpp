#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "burn/summary.h"
#include "common/file_io.h"
#include "report/fabric_map.h"
#include "report/html_report.h"
#include "tests/support/temp_dir.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

using namespace ibburn;
namespace fs = std::filesystem;

namespace {
// The field-notes design as an in-memory fabric, named as a discovery would name it.
topo::Fabric fabric_of(const wiring::FatTreeDesign& d) {
  topo::Fabric f;
  for (const auto& s : d.switches) f.add_node(topo::NodeType::Switch, s.guid, s.name, s.ports);
  for (const auto& h : d.hcas) f.add_node(topo::NodeType::CA, h.guid, h.description, 1);
  f.reset_names_to_descriptions();
  for (const auto& c : d.wiring.cables)
    f.connect({*f.find_name(c.a.node), c.a.port}, {*f.find_name(c.b.node), c.b.port});
  return f;
}
// Headless Chromium's DOM of a page (its profile under `tmp`); empty when it fails.
std::string dump_dom(const ibburn::testing::TempDir& tmp, const std::string& html) {
  const std::string dom = html + ".dom";
  const std::string cmd =
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync --user-data-dir=" +
      tmp.file("profile") + " --dump-dom file://" + html + " > " + dom + " 2>/dev/null";
  return std::system(cmd.c_str()) == 0 ? read_file(dom) : "";
}

// The number in the page's element with this id ("<span id="findings-count">7</span>"), -1 if none.
long count_in(const std::string& dom, const std::string& id) {
  std::smatch m;
  return std::regex_search(dom, m, std::regex("id=\"" + id + "\">([0-9]+)<")) ? std::stol(m[1]) : -1;
}

std::string verdict_in(const std::string& dom) {
  std::smatch m;
  return std::regex_search(dom, m, std::regex(R"(id="verdict">([A-Z]+)<)")) ? m[1].str() : "";
}
}  // namespace

// A real failed `ibburn run --transport sim` (a host cable at a quarter of its rate): the page
// it wrote shows the counts of the run's last line and of summary.json; the same directory with
// its summary saying running (the run killed) renders INCOMPLETE with the same counts.
TEST(ReportBrowser, PageCountsAreTheRunsForAFailedAndAnIncompleteRun) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "chromium not installed";
  wiring::FatTreeSpec spec;
  spec.tiers = 2;
  spec.radix = 8;
  spec.hosts = 8;
  spec.hcas_per_host = 1;
  spec.spines_per_pod = 2;
  spec.rate = {topo::Width::X4, topo::Speed::HDR};
  const auto d = wiring::generate_fat_tree(spec);
  ibburn::testing::TempDir tmp;
  write_file_atomic(tmp.file("fabric.net"), wiring::to_ibsim_netfile(d));
  std::string leaf_port;  // the leaf's end of the first host cable
  for (const auto& c : d.wiring.cables)
    for (const auto& [sw, hca] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}})
      if (leaf_port.empty() && hca.node.find(" mlx5_") != std::string::npos)
        leaf_port = sw.node + "[" + std::to_string(sw.port) + "]";
  ASSERT_FALSE(leaf_port.empty());

  const std::string ibburn = std::string(IBBURN_BINARY_DIR) + "/ibburn", run = tmp.file("run");
  const int rc = std::system((ibburn + " run --transport sim --fabric " + tmp.file("fabric.net") +
                              " --routing adaptive --probes 0 --duration 1s --degrade '" + leaf_port +
                              "=0.25' --quiet --out " + run + " 2> " + tmp.file("run.err"))
                                 .c_str());
  ASSERT_EQ(WEXITSTATUS(rc), 1) << read_file(tmp.file("run.err"));
  std::smatch last;
  const std::string err = read_file(tmp.file("run.err"));
  ASSERT_TRUE(
      std::regex_search(err, last, std::regex(R"(run: FAIL: ([0-9]+) finding\(s\), ([0-9]+) host\(s\) in drain.txt)")))
      << err;
  const long findings = std::stol(last[1]), drained = std::stol(last[2]);
  burn::BurnSummary s = burn::load_summary(run + "/summary.json");
  ASSERT_TRUE(s.findings);
  EXPECT_EQ(static_cast<long>(s.findings->size()), findings);
  EXPECT_GT(findings, 0);
  EXPECT_GT(drained, 0);

  std::string dom = dump_dom(tmp, run + "/report.html");
  ASSERT_FALSE(dom.empty());
  EXPECT_EQ(verdict_in(dom), "FAIL");
  EXPECT_EQ(count_in(dom, "findings-count"), findings);
  EXPECT_EQ(count_in(dom, "drain-count"), drained);
  EXPECT_NE(dom.find("slow_flow"), std::string::npos);  // the burn's findings are listed

  s.complete = false;  // as the summary of a run killed before its end says
  burn::write_summary(run + "/summary.json", s);
  const std::string page = tmp.file("incomplete.html");
  const int report_rc =
      std::system((ibburn + " report " + run + " -o " + page + " 2> " + tmp.file("report.err")).c_str());
  EXPECT_EQ(WEXITSTATUS(report_rc), 1) << read_file(tmp.file("report.err"));
  dom = dump_dom(tmp, page);
  EXPECT_EQ(verdict_in(dom), "INCOMPLETE");
  EXPECT_EQ(count_in(dom, "findings-count"), findings);
  EXPECT_EQ(count_in(dom, "drain-count"), drained);
  EXPECT_NE(dom.find(R"(id="incomplete")"), std::string::npos);
}

TEST(ReportBrowser, FieldNotesFabricRendersWithoutScriptErrors) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "chromium not installed";
  const auto d = wiring::generate_fat_tree(*wiring::fat_tree_preset("field-notes"));
  const auto fabric = fabric_of(d);
  ASSERT_EQ(fabric.ca_count(), 4088u);

  report::RunData run;
  const auto& hca_cable = d.wiring.cables[5];
  const auto& uplink = d.wiring.cables[5000];
  run.counters = nlohmann::json{{"ports", nlohmann::json::array()}, {"findings", nlohmann::json::array()}};
  run.counters->at("findings")
      .push_back(to_json(Finding{FindingKind::Errors,
                                 Severity::Error,
                                 "SymbolErrorCounter 40",
                                 {{hca_cable.b.node, hca_cable.b.port}, {hca_cable.a.node, hca_cable.a.port}},
                                 {}}));
  run.topo = std::vector<Finding>{{FindingKind::Miswired,
                                   Severity::Error,
                                   "found elsewhere",
                                   {{uplink.a.node, uplink.a.port}, {uplink.b.node, uplink.b.port}},
                                   {}}};

  // A burn over every HCA, one of them slow (on another leaf than the bad cable), for the heat map.
  run.burn.emplace();
  run.burn->complete = true;
  run.burn->pass = false;
  for (size_t i = 0; i < d.hcas.size(); ++i) {
    burn::EndpointRecord e;
    e.rank = static_cast<int>(i);
    e.host = d.hcas[i].host;
    e.endpoint = "mlx5_" + std::to_string(d.hcas[i].hca) + ":1";
    e.verdict = i == 78 ? burn::Verdict::Slow : burn::Verdict::Pass;
    e.min_tx_gbps = i == 78 ? 120.0 : 390.0;
    e.min_rx_gbps = 391.0;
    run.burn->endpoints.push_back(e);
  }

  // The screenshot stays in the build tree to look at; the rest (and Chromium's profile)
  // goes with the test's directory. Chromium keeps its default TMPDIR: its singleton socket
  // goes there (removed at exit), and a path in the build tree is too long for a socket.
  const fs::path png = fs::path(IBBURN_BINARY_DIR) / "tests" / "report" / "field-notes-report.png";
  fs::create_directories(png.parent_path());
  ibburn::testing::TempDir tmp;
  const std::string html = tmp.file("report.html");
  const std::string dom = tmp.file("dom.html");
  write_file_atomic(html, report::html_report(run, &fabric, "field-notes fabric"));
  const std::string flags =
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic "
      "--no-first-run --disable-background-networking --disable-component-update --disable-sync "
      "--user-data-dir=" +
      tmp.file("profile") + " --window-size=1400,1000 ";
  ASSERT_EQ(std::system((flags + "--dump-dom file://" + html + " > " + dom + " 2>/dev/null").c_str()), 0);
  const std::string dumped = read_file(dom);
  EXPECT_NE(dumped.find(R"(<pre id="js-errors" style="color:#d93025"></pre>)"), std::string::npos)
      << "script errors: " << dumped.substr(dumped.find("js-errors"), 300);
  EXPECT_NE(dumped.find("<svg"), std::string::npos);
  EXPECT_NE(dumped.find("<line"), std::string::npos);
  EXPECT_NE(dumped.find("class=\"agg\""), std::string::npos);
  EXPECT_NE(dumped.find("class=\"heat\""), std::string::npos);
  // The slow endpoint's and the bad cable's leaves show their verdicts.
  EXPECT_NE(dumped.find(std::string("fill=\"") + report::colour(report::CableVerdict::Slow)), std::string::npos);
  EXPECT_NE(dumped.find(std::string("fill=\"") + report::colour(report::CableVerdict::Errors)), std::string::npos);
  ASSERT_EQ(std::system((flags + "--screenshot=" + png.string() + " file://" + html + " >/dev/null 2>&1").c_str()), 0);
  EXPECT_GT(fs::file_size(png), 10000u);
  std::cout << "screenshot: " << png << "\n";
}
