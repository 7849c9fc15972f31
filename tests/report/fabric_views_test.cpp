#include <gtest/gtest.h>

#include "common/finding_details.h"
#include "report/fabric_views.h"

using namespace ibburn;
using namespace ibburn::report;

namespace {
// Two pods (leaves pNl1, pNl2 under spines pNs1, pNs2, every leaf to every spine), spine K
// of each pod to core K, two HCAs per leaf: 8 HCA cables, 8 leaf-spine, 4 spine-core.
topo::Fabric three_tiers() {
  topo::Fabric f;
  const auto c1 = f.add_node(topo::NodeType::Switch, 1, "core1", 8);
  const auto c2 = f.add_node(topo::NodeType::Switch, 2, "core2", 8);
  uint64_t guid = 10;
  int host = 1;
  for (int p = 1; p <= 2; ++p) {
    const std::string pod = "p" + std::to_string(p);
    const auto s1 = f.add_node(topo::NodeType::Switch, guid++, pod + "s1", 8);
    const auto s2 = f.add_node(topo::NodeType::Switch, guid++, pod + "s2", 8);
    f.connect({s1, 5}, {c1, p});
    f.connect({s2, 5}, {c2, p});
    for (int l = 1; l <= 2; ++l) {
      const auto leaf = f.add_node(topo::NodeType::Switch, guid++, pod + "l" + std::to_string(l), 8);
      f.connect({leaf, 5}, {s1, l});
      f.connect({leaf, 6}, {s2, l});
      for (int h = 1; h <= 2; ++h) {
        char name[32];
        std::snprintf(name, sizeof name, "gpu%03d mlx5_0", host++);
        f.connect({f.add_node(topo::NodeType::CA, guid++, name, 1), 1}, {leaf, h});
      }
    }
  }
  return f;
}

Finding cable_finding(FindingKind kind, PortRef a, PortRef b) {
  return {kind, Severity::Error, to_string(kind), {a, b}, {}};
}

RunData run_with(std::vector<Finding> findings) {
  RunData run;
  run.burn.emplace();
  run.burn->findings = std::move(findings);
  return run;
}

int cables_drawn(const FabricMap& m) {
  int n = 0;
  for (const auto& e : m.edges) n += e.cables;
  return n;
}

const MapBox& box(const FabricMap& m, const std::string& name) {
  for (const auto& b : m.boxes)
    if (b.name == name) return b;
  throw std::runtime_error("no box " + name);
}
}  // namespace

TEST(ReportFabricViews, PodsAreTheLeafSpineGroupsUnderTheCores) {
  const auto f = three_tiers();
  const auto tiers = node_tiers(f);
  const auto pods = node_pods(f, tiers);
  auto pod_of = [&](const std::string& name) { return pods[*f.find_name(name)]; };
  EXPECT_EQ(pod_of("core1"), -1);
  EXPECT_EQ(pod_of("p1s2"), 0);
  EXPECT_EQ(pod_of("p1l1"), 0);
  EXPECT_EQ(pod_of("p2l2"), 1);
  EXPECT_EQ(pod_of("gpu001 mlx5_0"), 0);
  EXPECT_EQ(pod_of("gpu008 mlx5_0"), 1);
}

TEST(ReportFabricViews, TheWholeFabricDrawsEverySwitchAndCarriesEveryCableOnce) {
  const auto f = three_tiers();
  const std::vector<std::pair<PortRef, PortRef>> missing = {{{"p2l2", 7}, {"p2s1", 7}}};
  const auto pic = fabric_picture(f, {}, missing, {});
  EXPECT_EQ(pic.nodes.size(), 18u);
  EXPECT_EQ(pic.cables.size(), 21u);  // the missing one too, drawn from the plan
  EXPECT_TRUE(pic.cables.back().planned_only);
  EXPECT_EQ(pic.cables.back().verdict, CableVerdict::Missing);
  ASSERT_EQ(pic.pods, (std::vector<std::string>{"pod 1", "pod 2"}));

  const FabricMap& m = pic.fabric;
  int switches = 0;
  for (const auto& b : m.boxes) switches += b.hcas == 0;
  EXPECT_EQ(switches, 10);
  EXPECT_EQ(cables_drawn(m), 21);
  EXPECT_LE(m.edges.size(), m.boxes.size());  // one line per switch and HCA box at most
  ASSERT_EQ(m.frames.size(), 2u);
  EXPECT_LT(box(m, "core1").y, box(m, "p1s1").y);
  EXPECT_LT(box(m, "p1s1").y, box(m, "p1l1").y);
  EXPECT_LT(box(m, "p1l1").y, box(m, "p1l1 HCAs").y);
  EXPECT_LT(box(m, "p1l2").x, box(m, "p2l1").x);  // pods side by side
  EXPECT_EQ(box(m, "p2l2 HCAs").hcas, 2);
  EXPECT_EQ(box(m, "p2l2").verdict, CableVerdict::Missing);
  EXPECT_EQ(m.frames[1].verdict, CableVerdict::Missing);
  EXPECT_EQ(m.frames[0].verdict, CableVerdict::Ok);

  // Each pod's own view: its switches, the cores they reach, every bundle.
  ASSERT_EQ(pic.pod_maps.size(), 2u);
  const FabricMap& pod2 = pic.pod_maps[1];
  EXPECT_EQ(pod2.boxes.size(), 4u + 2u + 2u);  // 4 switches, 2 cores, 2 HCA boxes
  EXPECT_EQ(cables_drawn(pod2), 4 + 1 + 2 + 4);
  EXPECT_NO_THROW(box(pod2, "core2"));
  EXPECT_THROW(box(pod2, "p1s1"), std::runtime_error);
}

TEST(ReportFabricViews, CablesTakeTheWorstEvidenceSuspectsOutlined) {
  const auto f = three_tiers();
  Finding systemic{FindingKind::Systemic, Severity::Error, "rail: all at 4xHDR", {}, {}};
  systemic.details = SystemicDetails{FindingKind::Degraded,
                                     {ScopeType::Rail, "mlx5_0", 2},
                                     2,
                                     nlohmann::json::object(),
                                     {cable_finding(FindingKind::Degraded, {"p1l1", 5}, {"p1s1", 1}),
                                      cable_finding(FindingKind::Degraded, {"p1l2", 5}, {"p1s1", 2})}};
  const RunData run = run_with({systemic, cable_finding(FindingKind::ErrorsUnderLoad, {"p2l1", 6}, {"p2s2", 1}),
                                cable_finding(FindingKind::NotExercised, {"p2s1", 5}, {"core1", 2}),
                                cable_finding(FindingKind::SuspectCable, {"p2s2", 5}, {"core2", 2})});
  const auto ev = port_evidence(run);
  EXPECT_EQ(ev.at("p1l1[5]").verdict, CableVerdict::Degraded);  // a systemic finding's own cables
  EXPECT_EQ(ev.at("p2s2[1]").verdict, CableVerdict::Errors);
  EXPECT_EQ(ev.at("core1[2]").verdict, CableVerdict::Unloaded);
  EXPECT_EQ(ev.at("core2[2]").verdict, CableVerdict::Slow);
  EXPECT_TRUE(ev.at("core2[2]").suspect);
  EXPECT_EQ(ev.at("p2s2[1]").evidence, (std::vector<std::string>{"errors_under_load: errors_under_load"}));

  const auto pic = fabric_picture(f, ev, {}, {{"p2l1[6] - p2s2[1]", "C-0042"}});
  const PictureCable* labelled = nullptr;
  for (const auto& c : pic.cables)
    if (!c.label.empty()) labelled = &c;
  ASSERT_NE(labelled, nullptr);
  EXPECT_EQ(labelled->label, "C-0042");
  EXPECT_EQ(pic.nodes[labelled->a].name, "p2l1");  // ends in name order
  EXPECT_EQ(labelled->verdict, CableVerdict::Errors);
  EXPECT_EQ(labelled->evidence.size(), 1u);  // both ends' one finding, once

  // In the whole fabric: a leaf's uplinks line takes its worst cable, a spine's the suspect.
  const FabricMap& m = pic.fabric;
  std::map<std::string, const MapEdge*> uplinks;
  for (const auto& e : m.edges)
    if (e.bus_y >= 0) uplinks[m.boxes[e.a].name] = &e;
  EXPECT_EQ(uplinks.size(), 8u);  // every leaf and spine
  EXPECT_EQ(uplinks.at("p2l1")->verdict, CableVerdict::Errors);
  EXPECT_EQ(uplinks.at("p1l2")->verdict, CableVerdict::Degraded);
  EXPECT_TRUE(uplinks.at("p2s2")->suspect);
  EXPECT_EQ(uplinks.at("p2s1")->verdict, CableVerdict::Unloaded);
  EXPECT_EQ(uplinks.at("p1s1")->verdict, CableVerdict::Ok);   // its degraded cables are its leaves' uplinks
  EXPECT_EQ(box(m, "p1s1").verdict, CableVerdict::Degraded);  // a switch shows all its own cables
  EXPECT_EQ(m.frames[1].verdict, CableVerdict::Errors);
}

TEST(ReportFabricViews, TwoTiersAreOnePodDrawnWhole) {
  topo::Fabric f;
  const auto s = f.add_node(topo::NodeType::Switch, 1, "spine1", 8);
  const auto l = f.add_node(topo::NodeType::Switch, 2, "leaf1", 8);
  f.connect({l, 5}, {s, 1});
  f.connect({f.add_node(topo::NodeType::CA, 3, "gpu001 mlx5_0", 1), 1}, {l, 1});
  const auto pic = fabric_picture(f, {}, {}, {});
  EXPECT_EQ(pic.pods.size(), 1u);
  EXPECT_TRUE(pic.pod_maps.empty());
  EXPECT_TRUE(pic.fabric.frames.empty());
  EXPECT_EQ(cables_drawn(pic.fabric), 2);
}
