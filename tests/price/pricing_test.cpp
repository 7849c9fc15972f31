#include "price/pricing.h"

#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "burn/summary.h"
#include "common/finding_details.h"
#include "price/defects.h"
#include "tests/price/price_model.h"

using namespace ibburn;
using namespace ibburn::price;
using fixture::make_rail_fabric;
using fixture::PriceModel;
using fixture::RailFabric;

namespace {

Subject what_if(const PriceModel& m, routing::EdgeId e, double ratio, const std::string& name) {
  Subject s;
  s.kind = "what_if";
  s.message = name;
  Defect d;
  d.scale = {{e, ratio}, {m.cables.reverse(e), ratio}};
  d.what = "test";
  s.defect = d;
  return s;
}

const FindingPrice& priced(const PriceReport& r, const std::string& message) {
  for (const auto& p : r.findings)
    if (p.what.message == message) return p;
  throw std::runtime_error("not priced: " + message);
}

double ring_worst(const FindingPrice& p, const std::string& job) {
  for (const auto& c : p.costs)
    if (c.collective == Collective::RingAllReduce && c.job == job) return c.worst;
  return 0;
}

}  // namespace

// Under adaptive routing a leaf's uplink at 25% hands most of its load to its siblings: the
// ring, which loads the uplinks far below their rate, does not slow at all; a host's cable at
// 25% slows every ring through that host 4x.
TEST(Pricing, AHostCableAt25IsPricedAboveAnInterSwitchCableAt25UnderAdaptiveRouting) {
  PriceModel m(make_rail_fabric(2, 2, 4, 2), true);
  std::vector<Subject> s{what_if(m, m.out_of(m.t.leaves[0][0], 5), 0.25, "uplink"),
                         what_if(m, m.hca_up(1, 0), 0.25, "host cable")};
  PriceOptions o;
  o.job_sizes = "leaf,all";
  const PriceReport r = price_subjects(m.fabric, s, o);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].what.message, "host cable") << "costliest first";
  EXPECT_DOUBLE_EQ(ring_worst(priced(r, "host cable"), "all"), 4.0);
  EXPECT_DOUBLE_EQ(ring_worst(priced(r, "host cable"), "leaf"), 4.0);
  EXPECT_DOUBLE_EQ(ring_worst(priced(r, "uplink"), "all"), 1.0);
  // Of the leaf-sized jobs only the one on host1's leaf is slowed: half of them.
  for (const auto& c : priced(r, "host cable").costs) {
    if (c.collective == Collective::RingAllReduce && c.job == "leaf") {
      EXPECT_DOUBLE_EQ(c.share(), 0.5);
    }
  }
  // The costliest of equal slowdowns is the one that slows the most placements.
  EXPECT_EQ(cost_text(*priced(r, "host cable").worst()), "ring all-reduce, 8 hosts (all): 4.00x in 100% of placements");
}

// Static routes keep a slow cable's load: the ring's hop over it slows by its ratio.
TEST(Pricing, UnderStaticRoutesASlowInterSwitchCableOnTheRingsPathSlowsIt) {
  PriceModel m(make_rail_fabric(1, 2, 2, 1), false);
  const PriceReport r = price_subjects(m.fabric, {what_if(m, m.out_of(m.t.leaves[0][0], 3), 0.5, "uplink")}, {});
  EXPECT_DOUBLE_EQ(ring_worst(r.findings[0], "all"), 2.0);
  EXPECT_DOUBLE_EQ(ring_worst(r.findings[0], "leaf"), 1.0) << "a leaf's job does not cross its uplink";
}

// A 1:1 tree (4 hosts, 4 uplinks a leaf): under adaptive routing even the all-to-all leaves room
// on a leaf's other uplinks (on a 2:1 tree it would not: AnAllToAllOnATwoToOneTaperedTree).
TEST(Pricing, MaxSlowdownFailsTheFabricBeyondItAndPassesWithin) {
  PriceModel m(make_rail_fabric(2, 2, 4, 4), true);
  PriceOptions o;
  o.max_slowdown = 0.02;
  EXPECT_TRUE(price_subjects(m.fabric, {}, o).go());
  EXPECT_TRUE(price_subjects(m.fabric, {what_if(m, m.out_of(m.t.leaves[0][0], 5), 0.25, "uplink")}, o).go())
      << "adaptive routing absorbs it";
  const PriceReport bad = price_subjects(m.fabric, {what_if(m, m.hca_up(1, 0), 0.25, "host cable")}, o);
  ASSERT_FALSE(bad.go());
  EXPECT_NE(bad.no_go[0].find("4.00x"), std::string::npos) << bad.no_go[0];
  EXPECT_NE(bad.no_go[0].find("limit 1.02x"), std::string::npos) << bad.no_go[0];
  std::ostringstream text;
  print_price(text, bad, 3);
  EXPECT_NE(text.str().find("NO-GO"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("repair 1: host cable"), std::string::npos) << text.str();
}

TEST(Pricing, FindingsBecomeDefectsOrSayWhyNot) {
  PriceModel m(make_rail_fabric(2, 2, 4, 2), true);
  burn::EndpointRecord rec;
  rec.rank = 3;
  rec.min_tx_gbps = 100;
  rec.min_rx_gbps = 380;
  Finding slow{FindingKind::SlowEndpoint,
               Severity::Error,
               "host1 mlx5_0[1] (cable to rail0-leaf0[2]): slow",
               {{"host1 mlx5_0", 1}, {"rail0-leaf0", 2}},
               burn::to_json(rec)};
  Finding errors{FindingKind::ErrorsUnderLoad, Severity::Error, "errors", {{"rail0-leaf0", 5}, {"spine0", 1}}, {}};
  Finding down{FindingKind::LinkDown, Severity::Error, "down", {{"rail0-leaf0", 5}, {"spine0", 1}}, {}};
  const auto subjects = subjects_of({slow, errors, down}, m.fabric, {});
  ASSERT_TRUE(subjects[0].defect);
  EXPECT_DOUBLE_EQ(subjects[0].defect->scale.at(m.hca_up(1, 0)), 0.25);
  EXPECT_EQ(subjects[0].defect->what, "at 25%");
  EXPECT_FALSE(subjects[1].defect);
  EXPECT_NE(subjects[1].not_priced.find("errors"), std::string::npos) << subjects[1].not_priced;
  ASSERT_TRUE(subjects[2].defect);
  EXPECT_EQ(subjects[2].defect->what, "down");
  const PriceReport r = price_subjects(m.fabric, subjects, {});
  EXPECT_EQ(r.findings.back().what.kind, "errors_under_load") << "the unpriced go last";
  const auto j = to_json(r);
  EXPECT_EQ(j["findings"][0]["kind"], "slow_endpoint");
  EXPECT_DOUBLE_EQ(j["findings"][0]["slowdown"].get<double>(), 4.0);
  EXPECT_TRUE(j["findings"].back().contains("not_priced"));
  EXPECT_EQ(j["fabric"].size(), 6u);  // three collectives, leaf and all
}

// route_unbalanced (route_check/): the equal ports past their group's mean run at the mean over
// what they carry; under static routes the model already sends the extra through them, so the
// design is the model with them faster, and the slowdown is what the imbalance costs.
TEST(Pricing, AnUnbalancedGroupOfUplinksIsPricedAtItsPortsShares) {
  PriceModel m(make_rail_fabric(1, 2, 4, 2), false);
  RouteUnbalancedDetails d;
  d.sw = "rail0-leaf0";
  d.ports = {{5, "spine0[1]", 3}, {6, "spine1[1]", 1}};
  d.max_over_min = 3;
  d.mean_over_max = 2.0 / 3;
  Finding f{FindingKind::RouteUnbalanced,
            Severity::Warning,
            "unbalanced",
            {{"rail0-leaf0", 5}, {"rail0-leaf0", 6}},
            nlohmann::json(d)};
  std::string why;
  const auto defect = defect_of(f, m.fabric, {}, why);
  ASSERT_TRUE(defect) << why;
  EXPECT_TRUE(defect->in_model);
  ASSERT_EQ(defect->scale.size(), 1u);  // port 6 is below the mean
  EXPECT_DOUBLE_EQ(defect->scale.at(m.out_of(m.t.leaves[0][0], 5)), 2.0 / 3);
  EXPECT_NE(defect->what.find("1 of 2 equal ports overloaded"), std::string::npos) << defect->what;

  d.sw = "no-such-leaf";
  f.details = d;
  EXPECT_FALSE(defect_of(f, m.fabric, {}, why));
  EXPECT_NE(why.find("not in the fabric"), std::string::npos) << why;
}

TEST(Pricing, APlaneBehindItsPeersIsEveryCableOfItAtItsShare) {
  // Rail 1's HCAs and leaves (plane 2) trained at 4xHDR, the rest at 4xNDR: the model holds the
  // slow plane as discovered.
  RailFabric rf = make_rail_fabric(2, 2, 4, 2);
  std::set<topo::NodeId> slow(rf.leaves[1].begin(), rf.leaves[1].end());
  for (const auto& host : rf.hcas) slow.insert(host[1]);
  for (topo::NodeId n = 0; n < rf.fabric.size(); ++n)
    for (topo::Port& p : rf.fabric.node(n).ports)
      if (p.linked())
        p.active = (slow.contains(n) || slow.contains(p.remote.node))
                       ? topo::LinkRate{topo::Width::X4, topo::Speed::HDR}
                       : topo::LinkRate{topo::Width::X4, topo::Speed::NDR};
  PriceModel m(std::move(rf), false);
  PlaneDetails d;
  d.plane = 2;
  d.differences = {"spine switches: 1 of 2 found"};
  d.bandwidth_fraction = 0.5;
  Finding f{FindingKind::PlaneAsymmetric, Severity::Error, "plane 2 falls short", {}, nlohmann::json(d)};
  std::string why;
  EXPECT_FALSE(defect_of(f, m.fabric, {}, why));  // the model knows no planes yet
  EXPECT_NE(why.find("does not tell plane 2 apart"), std::string::npos) << why;
  // Rail 1's HCAs and leaves are plane 2, the rest plane 1.
  topo::Fabric& model = m.t.fabric;
  model.subnets().resize(2);
  model.subnets()[0].plane = 1;
  model.subnets()[1].plane = 2;
  for (topo::NodeId n = 0; n < model.size(); ++n) model.node(n).subnet = 0;
  for (const auto& host : m.t.hcas) model.node(host[1]).subnet = 1;
  for (topo::NodeId leaf : m.t.leaves[1]) model.node(leaf).subnet = 1;
  const auto defect = defect_of(f, m.fabric, {}, why);
  ASSERT_TRUE(defect) << why;
  EXPECT_TRUE(defect->in_model);
  EXPECT_DOUBLE_EQ(defect->scale.at(m.hca_up(0, 1)), 0.5);
  EXPECT_FALSE(defect->scale.count(m.hca_up(0, 0)));
  EXPECT_EQ(defect->what, "plane 2 at 50% of the others' bandwidth");
  // A collective striped over both rails waits for the slow plane: every job at 2x.
  PriceOptions o;
  o.job_sizes = "all";
  const PriceReport r = price_subjects(m.fabric, subjects_of({f}, m.fabric, {}), o, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_NEAR(r.findings[0].slowdown(), 2.0, 1e-9);
  EXPECT_EQ(r.findings[0].worst()->share(), 1.0);
}

TEST(Pricing, ADrainedHostLeavesThePlacements) {
  PriceModel m(make_rail_fabric(1, 2, 4, 2), true);
  PriceOptions o;
  o.job_sizes = "all";
  const PriceReport r = price_subjects(m.fabric, {}, o, {*m.fabric.find_host("host0")});
  EXPECT_EQ(r.hosts, 7u);
  EXPECT_EQ(r.jobs[0].hosts, 7u);
}

// A cable's findings (its endpoint's, each direction's suspect) are one repair in the lead.
TEST(Pricing, TheCostliestRepairsAreOnePerPart) {
  PriceModel m(make_rail_fabric(2, 2, 4, 2), true);
  Subject a = what_if(m, m.hca_up(1, 0), 0.25, "host1's cable, up");
  a.ports = {{"host1 mlx5_0", 1}, {"rail0-leaf0", 2}};
  Subject b = what_if(m, m.cables.reverse(m.hca_up(1, 0)), 0.25, "host1's cable, down");
  b.ports = {{"rail0-leaf0", 2}, {"host1 mlx5_0", 1}};
  Subject c = what_if(m, m.hca_up(2, 1), 0.5, "host2's cable");
  c.ports = {{"host2 mlx5_1", 1}, {"rail1-leaf0", 3}};
  const PriceReport r = price_subjects(m.fabric, {a, b, c}, {});
  const auto repairs = r.repairs(3);
  ASSERT_EQ(repairs.size(), 2u);
  EXPECT_EQ(repairs[0]->what.message, "host1's cable, up");
  EXPECT_EQ(repairs[1]->what.message, "host2's cable");
  EXPECT_EQ(to_json(r)["repairs"].size(), 2u);
}
