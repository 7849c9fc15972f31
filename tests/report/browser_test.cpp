#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "burn/summary.h"
#include "common/file_io.h"
#include "report/fabric_map.h"
#include "report/html_report.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

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
// Headless Chromium's DOM of a page (its profile under `tmp`), opened at `hash` ("search=x")
// in a window of `window` pixels ("1400,1000"; Chromium's default when empty); empty when it
// fails. Its console goes to `html`.log: a script error fails the test there too.
std::string dump_dom(const ibburn::testing::TempDir& tmp, const std::string& html, const std::string& hash = "",
                     const std::string& window = "") {
  const std::string dom = html + ".dom", log = html + ".log";
  const std::string cmd =
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync --enable-logging=stderr "
      "--user-data-dir=" +
      tmp.file("profile") + (window.empty() ? "" : " --window-size=" + window) + " --dump-dom 'file://" + html +
      (hash.empty() ? "" : "#" + hash) + "' > " + dom + " 2> " + log;
  if (std::system(cmd.c_str()) != 0) return "";
  const std::string console = read_file(log);
  EXPECT_EQ(console.find("Uncaught"), std::string::npos) << console;
  return read_file(dom);
}

// How often `needle` occurs in `text`.
size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The DOM without the page's own script (page.js, last), whose text holds the markup it draws.
std::string drawn(const std::string& dom) { return dom.substr(0, dom.rfind("<script>")); }

// The picture holds every switch (one box each) and every cable (on exactly one line: the
// lines' data-cables add up).
void expect_whole_fabric(const std::string& page, size_t switches, size_t cables) {
  const std::string dom = drawn(page);
  EXPECT_NE(dom.find(R"(data-view="fabric")"), std::string::npos);
  EXPECT_EQ(occurrences(dom, R"(<g class="sw")"), switches);
  size_t drawn = 0;
  const std::regex counts(R"re(data-cables="([0-9]+)")re");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), counts); it != std::sregex_iterator(); ++it)
    drawn += std::stoul((*it)[1]);
  EXPECT_EQ(drawn, cables);
}

// The rows of the table with this id, header excluded.
size_t table_rows(const std::string& dom, const std::string& id) {
  const auto at = dom.find("id=\"" + id + "\"");
  if (at == std::string::npos) return 0;
  return occurrences(dom.substr(at, dom.find("</table>", at) - at), "<tr>") - 1;
}

// Headless Chromium's screenshot of a page, kept in the build tree for a person to look at.
void screenshot(const ibburn::testing::TempDir& tmp, const std::string& html, const std::string& name) {
  const fs::path png = fs::path(ibburn::testing::binary_dir()) / "tests" / "report" / name;
  fs::create_directories(png.parent_path());
  const std::string cmd =
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync --user-data-dir=" +
      tmp.file("profile") + " --window-size=1400,2400 --screenshot=" + png.string() + " file://" + html +
      " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_GT(fs::file_size(png), 10000u);
  std::cout << "screenshot: " << png << "\n";
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
  auto d = wiring::generate_fat_tree(spec);
  ibburn::testing::TempDir tmp;
  write_file_atomic(tmp.file("fabric.net"), wiring::to_ibsim_netfile(d));
  std::string leaf_port;  // the leaf's end of the first host cable
  for (const auto& c : d.wiring.cables)
    for (const auto& [sw, hca] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}})
      if (leaf_port.empty() && hca.node.find(" mlx5_") != std::string::npos)
        leaf_port = sw.node + "[" + std::to_string(sw.port) + "]";
  ASSERT_FALSE(leaf_port.empty());
  // The wiring list plans one uplink at 4xNDR (the fabric runs 4xHDR): a degraded cable for
  // cables.csv, with its label.
  wiring::Cable* uplink = nullptr;
  for (auto& c : d.wiring.cables)
    if (!uplink && c.a.node.find(" mlx5_") == std::string::npos && c.b.node.find(" mlx5_") == std::string::npos)
      uplink = &c;
  ASSERT_NE(uplink, nullptr);
  uplink->rate = topo::LinkRate{topo::Width::X4, topo::Speed::NDR};
  uplink->label = "C-0042";
  write_file_atomic(tmp.file("wiring.csv"), wiring::to_csv(d.wiring));

  const std::string ibburn = ibburn::testing::binary_dir() + "/ibburn", run = tmp.file("run");
  const int rc = std::system((ibburn + " run --transport sim --fabric " + tmp.file("fabric.net") + " --wiring " +
                              tmp.file("wiring.csv") +
                              " --max-drain 100% --routing adaptive --probes 0 --duration 1s --degrade '" + leaf_port +
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
  EXPECT_NE(dom.find(R"(<pre id="js-errors" style="color:#d93025"></pre>)"), std::string::npos);

  // Actions first: the drain list and the cable list as drain.txt and cables.csv hold them,
  // each with its copy button, above the picture.
  const auto actions = dom.find(R"(id="actions")");
  ASSERT_NE(actions, std::string::npos);
  EXPECT_LT(actions, dom.find(R"(id="fabric")"));
  EXPECT_EQ(static_cast<long>(table_rows(dom, "drain-list")), drained);
  const std::string csv = read_file(run + "/cables.csv");
  const size_t cable_rows = occurrences(csv, "\n") - 1;
  EXPECT_GT(cable_rows, 0u);
  EXPECT_EQ(table_rows(dom, "cable-list"), cable_rows);
  EXPECT_NE(dom.find(R"(data-copy="drain-text")"), std::string::npos);
  EXPECT_NE(dom.find(R"(data-copy="cables-text")"), std::string::npos);
  // The fabric the job ran on, every switch and cable; bandwidth over time, a chart per stage.
  expect_whole_fabric(dom, d.switches.size(), d.wiring.cables.size());
  EXPECT_EQ(static_cast<int>(occurrences(dom, R"(<figure class="stage-bw")")), s.stages_run);
  EXPECT_NE(dom.find(R"(class="median")"), std::string::npos);
  EXPECT_NE(dom.find(R"(class="line-rate")"), std::string::npos);
  // The search finds a host's HCA.
  const std::string host = d.hcas.front().host;
  const std::string found = dump_dom(tmp, run + "/report.html", "search=" + host);
  const auto results = found.find(R"(id="search-results")");
  ASSERT_NE(results, std::string::npos);
  EXPECT_NE(found.find("HCA " + host + " mlx5_0", results), std::string::npos) << found.substr(results, 400);
  const std::string label = dump_dom(tmp, run + "/report.html", "search=C-0042");
  EXPECT_NE(label.find("cable C-0042: "), std::string::npos);
  screenshot(tmp, run + "/report.html", "run-report.png");

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
  const fs::path png = fs::path(ibburn::testing::binary_dir()) / "tests" / "report" / "field-notes-report.png";
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
  expect_whole_fabric(dumped, 320, 12280);
  // Zoom: a pod's own view, one switch's ports; the search finds a host on a page of 4,088 HCAs.
  const std::string pod = dump_dom(tmp, html, "pod=2");
  EXPECT_NE(pod.find(R"(data-view="pod")"), std::string::npos);
  EXPECT_GT(occurrences(drawn(pod), "<line"), 16u * 16u);  // pod 2's leaf-spine bundles at least
  const std::string leaf = dump_dom(tmp, html, "node=pod1-leaf01");
  EXPECT_NE(leaf.find(R"(data-view="switch")"), std::string::npos);
  EXPECT_EQ(occurrences(drawn(leaf), R"(<g class="port")"), 64u);
  const std::string found = dump_dom(tmp, html, "search=host511");
  EXPECT_NE(found.find("HCA host511 mlx5_7"), std::string::npos);
  ASSERT_EQ(std::system((flags + "--screenshot=" + png.string() + " file://" + html + " >/dev/null 2>&1").c_str()), 0);
  EXPECT_GT(fs::file_size(png), 10000u);
  std::cout << "screenshot: " << png << "\n";
}

namespace {
// The box of the page's picture and of what is drawn in it, in CSS pixels, as Chromium lays
// the page out (window 1400x1000) at `hash`: a script appended after page.js measures both.
struct PictureBox {
  double top, bottom, left, right;                          // the <svg id="map"> element
  double drawn_top, drawn_bottom, drawn_left, drawn_right;  // the union of its children
};
PictureBox measure_picture(const ibburn::testing::TempDir& tmp, const std::string& page, const std::string& hash) {
  const std::string html = tmp.file("measured.html");
  write_file_atomic(html, page + R"(<script>(function () {
  var s = document.getElementById('map'), b = s.getBoundingClientRect(), d = [1e9, -1e9, 1e9, -1e9];
  for (var i = 0; i < s.children.length; ++i) {
    var c = s.children[i].getBoundingClientRect();
    if (!c.width && !c.height) continue;
    d = [Math.min(d[0], c.top), Math.max(d[1], c.bottom), Math.min(d[2], c.left), Math.max(d[3], c.right)];
  }
  var p = document.createElement('pre');
  p.id = 'measured';
  p.textContent = [b.top, b.bottom, b.left, b.right].concat(d).join(' ');
  document.body.appendChild(p);
})();</script>)");
  const std::string text = dump_dom(tmp, html, hash, "1400,1000");
  EXPECT_FALSE(text.empty());
  std::smatch m;
  PictureBox b{};
  if (!std::regex_search(text, m, std::regex(R"re(<pre id="measured">([^<]*)</pre>)re"))) {
    ADD_FAILURE() << "no measurement at #" << hash;
    return b;
  }
  std::istringstream in(m[1].str());
  in >> b.top >> b.bottom >> b.left >> b.right >> b.drawn_top >> b.drawn_bottom >> b.drawn_left >> b.drawn_right;
  return b;
}

// The picture's box ends where its drawing does (no empty band under it, nor over it: a few
// pixels of padding and border at most), and the drawing fills the box's width or its height.
void expect_fitted(const PictureBox& b, const std::string& what) {
  const double height = b.bottom - b.top, width = b.right - b.left, slack = std::max(12.0, 0.04 * height);
  EXPECT_GT(height, 100) << what;
  EXPECT_LE(b.bottom - b.drawn_bottom, slack)
      << what << ": an empty band of " << b.bottom - b.drawn_bottom << " px under a picture " << height << " px high";
  EXPECT_LE(b.drawn_top - b.top, slack) << what;
  EXPECT_TRUE(b.drawn_right - b.drawn_left >= 0.9 * width || b.drawn_bottom - b.drawn_top >= 0.9 * height)
      << what << ": drawn " << b.drawn_right - b.drawn_left << "x" << b.drawn_bottom - b.drawn_top << " in " << width
      << "x" << height;
}
}  // namespace

// At the field notes' 4,088 HCAs and at 32k HCAs the picture's box fits its drawing, for the
// whole fabric and for a pod.
TEST(ReportBrowser, ThePictureHasNoEmptyBandAtAnyFabricSize) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "chromium not installed";
  wiring::FatTreeSpec big;
  big.hosts = 4096;
  big.rate = {topo::Width::X4, topo::Speed::HDR};
  for (const auto& [name, spec] : {std::pair{std::string("4,088 HCAs"), *wiring::fat_tree_preset("field-notes")},
                                   std::pair{std::string("32k HCAs"), big}}) {
    const auto d = wiring::generate_fat_tree(spec);
    const auto fabric = fabric_of(d);
    ibburn::testing::TempDir tmp;
    const std::string page = report::html_report(report::RunData{}, &fabric, name);
    expect_fitted(measure_picture(tmp, page, ""), name + ", the whole fabric");
    expect_fitted(measure_picture(tmp, page, "pod=1"), name + ", pod 1");
  }
}
