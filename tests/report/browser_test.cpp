#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "common/file_io.h"
#include "report/fabric_map.h"
#include "report/html_report.h"
#include "tests/support/temp_dir.h"
#include "wiring/fat_tree.h"

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
}  // namespace

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
      .push_back(to_json(Finding{"errors",
                                 Severity::Error,
                                 "SymbolErrorCounter 40",
                                 {{hca_cable.b.node, hca_cable.b.port}, {hca_cable.a.node, hca_cable.a.port}},
                                 {}}));
  run.topo = std::vector<Finding>{{"miswired",
                                   Severity::Error,
                                   "found elsewhere",
                                   {{uplink.a.node, uplink.a.port}, {uplink.b.node, uplink.b.port}},
                                   {}}};

  // A burn over every HCA, one of them slow (on another leaf than the bad cable), for the heat map.
  run.burn.emplace();
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
