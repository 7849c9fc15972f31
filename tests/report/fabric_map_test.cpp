#include <gtest/gtest.h>

#include "report/fabric_map.h"
#include "report/fabric_views.h"
#include "report/html_report.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {
// hca1,hca2 - leaf1; hca3 - leaf2; leaf1, leaf2 - spine1 (two cables from leaf1).
topo::Fabric small_fabric() {
  topo::Fabric f;
  auto sp = f.add_node(topo::NodeType::Switch, 1, "spine1", 8);
  auto l1 = f.add_node(topo::NodeType::Switch, 2, "leaf1", 8);
  auto l2 = f.add_node(topo::NodeType::Switch, 3, "leaf2", 8);
  auto h1 = f.add_node(topo::NodeType::CA, 4, "gpu001 mlx5_0", 1);
  auto h2 = f.add_node(topo::NodeType::CA, 5, "gpu002 mlx5_0", 1);
  auto h3 = f.add_node(topo::NodeType::CA, 6, "gpu003 mlx5_0", 1);
  f.connect({h1, 1}, {l1, 1});
  f.connect({h2, 1}, {l1, 2});
  f.connect({h3, 1}, {l2, 1});
  f.connect({l1, 5}, {sp, 1});
  f.connect({l1, 6}, {sp, 2});
  f.connect({l2, 5}, {sp, 3});
  return f;
}

const MapBox* box(const FabricMap& m, const std::string& name) {
  for (const auto& b : m.boxes)
    if (b.name == name) return &b;
  return nullptr;
}
}  // namespace

TEST(ReportFabricMap, TiersByDistanceFromHcas) {
  const auto f = small_fabric();
  EXPECT_EQ(node_tiers(f), (std::vector<int>{2, 1, 1, 0, 0, 0}));
}

TEST(ReportFabricMap, VerdictsFromFindingsAndBurn) {
  RunData run;
  run.topo = std::vector<Finding>{{FindingKind::Miswired, Severity::Error, "", {{"leaf2", 5}, {"spine1", 3}}, {}},
                                  {FindingKind::Missing, Severity::Error, "", {{"leaf2", 6}, {"spine1", 4}}, {}}};
  run.counters = nlohmann::json::parse(R"({"ports":[],"findings":[{"kind":"errors","severity":"error","message":"",
      "ports":[{"node":"leaf1","port":2},{"node":"gpu002 mlx5_0","port":1}]}]})");
  run.burn.emplace();
  burn::EndpointRecord slow;
  slow.host = "gpu003";
  slow.endpoint = "mlx5_0:1";
  slow.verdict = burn::Verdict::Slow;
  run.burn->endpoints = {slow};
  run.burn->suspects = {{"leaf1[6] -> spine1[2]", "leaf1[6]", "spine1[2]", 1.0, 2, 0, {}},
                        {"leaf1[5] -> spine1[1]", "leaf1[5]", "spine1[1]", 0.2, 1, 3, {}}};
  const auto v = port_evidence(run);
  EXPECT_EQ(v.at("leaf1[2]").verdict, CableVerdict::Errors);
  EXPECT_EQ(v.at("gpu003 mlx5_0[1]").verdict, CableVerdict::Slow);
  EXPECT_EQ(v.at("spine1[3]").verdict, CableVerdict::Miswired);
  EXPECT_EQ(v.at("leaf1[6]").verdict, CableVerdict::Slow);  // the burn named it
  EXPECT_EQ(v.at("spine1[2]").verdict, CableVerdict::Slow);
  EXPECT_EQ(v.at("leaf1[5]").verdict, CableVerdict::Ok);  // 20%: a tie, not a verdict
  EXPECT_TRUE(v.at("leaf1[5]").suspect);                  // but outlined

  const auto m = layout_fabric(small_fabric(), v, missing_cables(run));
  ASSERT_NE(box(m, "spine1"), nullptr);
  ASSERT_NE(box(m, "leaf1 HCAs"), nullptr);
  // Rows: spine above leaves above the HCA aggregates.
  EXPECT_LT(box(m, "spine1")->y, box(m, "leaf1")->y);
  EXPECT_LT(box(m, "leaf1")->y, box(m, "leaf1 HCAs")->y);
  EXPECT_LT(box(m, "leaf1")->x, box(m, "leaf2")->x);
  EXPECT_EQ(box(m, "leaf1 HCAs")->hcas, 2);
  EXPECT_EQ(box(m, "leaf1 HCAs")->verdict, CableVerdict::Errors);
  EXPECT_EQ(box(m, "leaf2 HCAs")->verdict, CableVerdict::Slow);
  // leaf1-spine1: one bundle of two ok cables; leaf2-spine1: a miswired cable plus a missing one.
  int bundles = 0;
  for (const auto& e : m.edges) {
    const auto& a = m.boxes[e.a].name;
    const auto& b = m.boxes[e.b].name;
    if ((a == "leaf1" && b == "spine1") || (b == "leaf1" && a == "spine1")) {
      ++bundles;
      EXPECT_EQ(e.cables, 2);
      EXPECT_EQ(e.verdict, CableVerdict::Slow);  // one of the two is the suspect
    }
    if ((a == "leaf2" && b == "spine1") || (b == "leaf2" && a == "spine1")) {
      ++bundles;
      EXPECT_EQ(e.cables, 2);
      EXPECT_EQ(e.verdict, CableVerdict::Missing);
      EXPECT_FALSE(e.planned_only);
    }
  }
  EXPECT_EQ(bundles, 2);
  // The switch view's cables: leaf1's two HCA cables, the second with the counters' errors.
  const auto pic = fabric_picture(small_fabric(), v, missing_cables(run), {});
  std::vector<const PictureCable*> at_leaf1;
  for (const auto& c : pic.cables)
    if (pic.nodes[c.b].name == "leaf1" && pic.nodes[c.a].name.find(" mlx5_") != std::string::npos)
      at_leaf1.push_back(&c);
  ASSERT_EQ(at_leaf1.size(), 2u);
  EXPECT_EQ(at_leaf1[1]->verdict, CableVerdict::Errors);
}

TEST(ReportHtml, EscapesAndHasVerdictFirst) {
  EXPECT_EQ(html_escape(R"(<a href="x">&'</a>)"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  RunData run;
  run.topo = std::vector<Finding>{{FindingKind::Missing, Severity::Error, "<script>alert(1)</script>", {}, {}}};
  const auto f = small_fabric();
  const std::string html = html_report(run, &f, "t");
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_LT(html.find("FAIL"), html.find("<svg"));
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_NE(html.find(R"(class="verdict fail")"), std::string::npos);
  EXPECT_NE(html_report(RunData{}, nullptr, "t").find(R"(class="verdict pass")"), std::string::npos);
}

TEST(ReportHtml, BurnSuspectsAndPreflightAreShown) {
  RunData run;
  run.burn.emplace();
  run.burn->pass = false;
  run.burn->suspects = {{"leaf1[6] -> spine1[2]", "leaf1[6]", "spine1[2]", 1.0, 3, 0, {}}};
  run.burn->host_checks = {
      {"gpu009", true, {false, {}, {{FindingKind::PcieDegraded, Severity::Error, "mlx5_3 at x8", {}, {}}}}}};
  const std::string html = html_report(run, nullptr, "t");
  EXPECT_NE(html.find("Suspect cables (1)"), std::string::npos);
  EXPECT_NE(html.find("leaf1[6] -&gt; spine1[2]"), std::string::npos);
  EXPECT_NE(html.find("100%"), std::string::npos);
  EXPECT_NE(html.find("gpu009 (refused by the burn)"), std::string::npos);
  EXPECT_NE(html.find("mlx5_3 at x8"), std::string::npos);
}
