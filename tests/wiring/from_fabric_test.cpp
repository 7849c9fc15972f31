#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.h"
#include "plan_rows.h"
#include "topo/fabric.h"
#include "topo/fabric_io.h"
#include "topo/node_name_map.h"
#include "wiring/fat_tree.h"
#include "wiring/from_fabric.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::wiring {
namespace {

using topo::LinkRate;
using topo::NodeType;
using topo::Speed;
using topo::Width;

// leaf (generic description) with two HCAs and one uplink to a spine; one HCA trained 1x.
topo::Fabric golden() {
  topo::Fabric f;
  auto spine = f.add_node(NodeType::Switch, 0x20, "MF0;sw:MQM9700/U1", 8);
  auto leaf = f.add_node(NodeType::Switch, 0x10, "MF0;sw:MQM9700/U1", 8);
  auto h1 = f.add_node(NodeType::CA, 0x100, "host001 mlx5_0", 1);
  auto h2 = f.add_node(NodeType::CA, 0x102, "host002 mlx5_0", 1);
  f.connect({leaf, 1}, {h1, 1});
  f.connect({h2, 1}, {leaf, 2});
  f.connect({leaf, 5}, {spine, 3});
  for (auto [n, p] : {std::pair{leaf, 1}, {h1, 1}, {leaf, 5}, {spine, 3}})
    f.port({n, p}).active = {Width::X4, Speed::NDR};
  f.port({h2, 1}).active = {Width::X1, Speed::NDR};  // only one end known: still the rate
  f.reset_names_to_descriptions();
  return f;
}

TEST(FromFabric, NamesEveryLinkOnceWithItsTrainedRate) {
  topo::Fabric f = golden();
  topo::NodeNameMap names;
  names.add(0x10, "pod1-leaf01");
  names.add(0x20, "pod1-spine01");
  names.apply(f);
  Wiring w = wiring_from_fabric(f, "golden.json");
  EXPECT_EQ(w.origin, "golden.json");
  ASSERT_EQ(w.cables.size(), 3u);
  std::vector<std::string> rows;
  for (const Cable& c : w.cables)
    rows.push_back(c.a.node + "[" + std::to_string(c.a.port) + "]-" + c.b.node + "[" + std::to_string(c.b.port) + "] " +
                   (c.rate ? topo::to_string(*c.rate) : "any"));
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"host001 mlx5_0[1]-pod1-leaf01[1] 4xNDR",
                                            "host002 mlx5_0[1]-pod1-leaf01[2] 1xNDR",
                                            "pod1-spine01[3]-pod1-leaf01[5] 4xNDR"}));
  // The CSV it makes parses back to the same cables.
  EXPECT_EQ(parse_wiring_csv(to_csv(w), "again").cables.size(), 3u);
}

TEST(FromFabric, UnknownRateMeansAny) {
  topo::Fabric f;
  auto a = f.add_node(NodeType::Switch, 1, "a", 4);
  auto b = f.add_node(NodeType::Switch, 2, "b", 4);
  f.connect({a, 1}, {b, 2});
  f.reset_names_to_descriptions();
  Wiring w = wiring_from_fabric(f, "x");
  ASSERT_EQ(w.cables.size(), 1u);
  EXPECT_FALSE(w.cables[0].rate);
}

TEST(FromFabric, AmbiguousNamesNeedANodeNameMap) {
  topo::Fabric f = golden();  // both switches say MF0;sw:MQM9700/U1
  try {
    wiring_from_fabric(f, "golden.json");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), kExitInput);
    EXPECT_EQ(std::string(e.what()),
              "golden.json: nodes 0x0000000000000010 and 0x0000000000000020 are both named "
              "'MF0;sw:MQM9700/U1': give a node-name-map so that the plan can tell them apart");
  }
}

TEST(FromFabric, UnnamedNodeIsAnError) {
  topo::Fabric f;
  auto a = f.add_node(NodeType::Switch, 0xab, "", 4);
  auto b = f.add_node(NodeType::CA, 0xcd, "h mlx5_0", 1);
  f.connect({a, 1}, {b, 1});
  f.reset_names_to_descriptions();
  EXPECT_THROW(wiring_from_fabric(f, "x"), Error);
}

// The generated netfile read by ibburn's own ibnetdiscover loader gives back the plan.
TEST(FromFabric, GeneratedNetfileLoadsBackToThePlan) {
  FatTreeSpec s;
  s.radix = 16;
  s.hosts = 40;
  s.hcas_per_host = 4;
  FatTreeDesign d = generate_fat_tree(s);
  ASSERT_GT(d.shape.pods, 1);
  NetfileOptions generic;
  generic.generic_switch_descriptions = true;
  topo::Fabric f = topo::parse_fabric_text(to_ibsim_netfile(d, generic), "design.net");
  EXPECT_EQ(f.switch_count(), d.switches.size());
  EXPECT_EQ(f.ca_count(), d.hcas.size());
  EXPECT_THROW(wiring_from_fabric(f, "design.net"), Error);  // generic names are ambiguous
  node_name_map(d).apply(f);
  expect_same_plan(plan_rows(d.wiring, true), plan_rows(wiring_from_fabric(f, "design.net")));
}

}  // namespace
}  // namespace ibburn::wiring
