#include <gtest/gtest.h>

#include <regex>

#include "common/finding_details.h"
#include "report/html_report.h"
#include "report/page_sections.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {
RunData acted_on_run() {
  RunData run;
  run.burn.emplace();
  run.burn->pass = false;
  Finding systemic{FindingKind::Systemic, Severity::Error, "rail mlx5_3: all 511 HCA cables run at 4xHDR", {}, {}};
  systemic.details =
      SystemicDetails{FindingKind::Degraded, {ScopeType::Rail, "mlx5_3", 511}, 511, nlohmann::json::object(), {}};
  run.burn->findings = std::vector<Finding>{systemic};
  run.drain = parse_drain("# not drained: the guard\ngpu001\terrors_under_load: <x>\n");
  run.cables = parse_cables_csv(
      "a_node,a_port,b_node,b_port,cable,action,evidence,a_part,b_part\n"
      "gpu001 mlx5_0,1,leaf01,1,C-0001,reseat,errors_under_load: +40,Mellanox MCP4Y10-N002 SN MT2245VS01234,Mellanox "
      "MCP4Y10-N002 SN MT2245VS01234\n",
      "cables.csv");
  return run;
}
}  // namespace

TEST(ReportHtmlPage, ActionsUnderTheVerdictSystemicFirstWithCopyButtons) {
  const std::string html = html_report(acted_on_run(), nullptr, "t");
  const auto verdict = html.find(R"(id="verdict")"), systemic = html.find("Systemic causes (1)"),
             drain = html.find("Hosts to drain (1)"), cables = html.find("Cables to service (1)"),
             findings = html.find("<h2>Findings</h2>");
  ASSERT_NE(systemic, std::string::npos);
  ASSERT_NE(drain, std::string::npos);
  ASSERT_NE(cables, std::string::npos);
  EXPECT_LT(verdict, systemic);
  EXPECT_LT(systemic, drain);
  EXPECT_LT(drain, cables);
  EXPECT_LT(cables, findings);
  EXPECT_NE(html.find("<b>rail mlx5_3</b>"), std::string::npos);
  EXPECT_NE(html.find(R"(<span id="drain-count">1</span>)"), std::string::npos);  // host lines, not the note
  EXPECT_NE(html.find("not drained: the guard"), std::string::npos);
  EXPECT_NE(html.find("errors_under_load: &lt;x&gt;"), std::string::npos);
  EXPECT_NE(html.find("Mellanox MCP4Y10-N002 SN MT2245VS01234"), std::string::npos);
  // The copy buttons' text, as the lists' own lines.
  EXPECT_NE(html.find(R"(data-copy="drain-text")"), std::string::npos);
  EXPECT_NE(html.find("gpu001\terrors_under_load: &lt;x&gt;\n</textarea>"), std::string::npos);
  EXPECT_NE(html.find("C-0001: gpu001 mlx5_0[1] &lt;-&gt; leaf01[1]: reseat (Mellanox MCP4Y10-N002 SN "
                      "MT2245VS01234): errors_under_load: +40\n</textarea>"),
            std::string::npos);
}

TEST(ReportHtmlPage, TravelsAloneAndPrints) {
  const std::string html = html_report(acted_on_run(), nullptr, "t");
  // Nothing fetched: no external script, style, font, image or link.
  for (const char* fetch : {"src=", "<link", "@import", "url(", "@font-face", "href=\"http"})
    EXPECT_EQ(html.find(fetch), std::string::npos) << fetch;
  EXPECT_NE(html.find("@media print"), std::string::npos);
  EXPECT_NE(html.find("window.onerror"), std::string::npos);
  EXPECT_NE(html.find("button.copy"), std::string::npos);  // the script is in the page
}

TEST(ReportHtmlPage, BandwidthChartPerStageWithTheSlowestLines) {
  RunData run;
  run.endpoints.resize(2);
  run.endpoints[0].host = "gpu001", run.endpoints[1].host = "gpu002";
  run.endpoints[0].rate_gbps = run.endpoints[1].rate_gbps = 400;
  for (int i = 1; i <= 2; ++i) {
    burn::StageResult st;
    st.index = i;
    st.name = i == 1 ? "stage 1" : "shift 1";  // as the generated plans and a site's own plan name them
    burn::FlowResult f;
    burn::DirectionResult d;
    d.from = 0, d.to = 1, d.samples_gbps = {390, 120, 391};
    f.directions = {d};
    st.flows = {f};
    run.stages.push_back(st);
  }
  const std::string html = html_report(run, nullptr, "t");
  EXPECT_NE(html.find("Bandwidth over time"), std::string::npos);
  const std::regex figure(R"(<figure class="stage-bw")");
  EXPECT_EQ(std::distance(std::sregex_iterator(html.begin(), html.end(), figure), std::sregex_iterator()), 2);
  EXPECT_NE(html.find("of 400 line rate"), std::string::npos);
  EXPECT_NE(html.find("slowest second 120.0 Gb/s"), std::string::npos);
  EXPECT_NE(html.find(R"(class="slowest")"), std::string::npos);
}

// Each stage's label once: a generated plan's "stage 1" is not printed as "stage 1 stage 1".
TEST(ReportHtmlPage, EachStageLabelOnce) {
  RunData run;
  run.endpoints.resize(2);
  for (const auto& [index, name] : {std::pair{1, std::string("stage 1")}, std::pair{2, std::string("shift 1")}}) {
    burn::StageResult st;
    st.index = index, st.name = name;
    burn::FlowResult f;
    burn::DirectionResult d;
    d.from = 0, d.to = 1, d.samples_gbps = {390};
    f.directions = {d};
    st.flows = {f};
    run.stages.push_back(st);
  }
  const std::string html = html_report(run, nullptr, "t");
  EXPECT_NE(html.find("<figcaption>stage 1: 1 directions"), std::string::npos);
  EXPECT_NE(html.find("<figcaption>stage 2 (shift 1): 1 directions"), std::string::npos);
  EXPECT_EQ(html.find("stage 1 stage 1"), std::string::npos);
}

// The data in the page's scripts carries no '<' at all: a node description holding
// "</script>" or "<!--" cannot end the script or open a comment that swallows the page.
TEST(ReportHtmlPage, ScriptDataEscapesEveryLessThan) {
  const std::string out = script_data("X", nlohmann::json{{"d", "a</script><!--<b>"}});
  EXPECT_EQ(out, R"(<script>var X={"d":"a\u003c/script>\u003c!--\u003cb>"};</script>)");
  EXPECT_EQ(nlohmann::json::parse(out.substr(14, out.size() - 14 - 10)).at("d"), "a</script><!--<b>");
}
