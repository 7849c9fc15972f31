// Generated designs, end to end: the netfile runs in ibsim, the real ibnetdiscover discovers
// it under umad2sim, and the wiring taken from that discovered fabric (names from the
// generated node-name-map) is exactly the generated plan: every cable, port, width and speed
// (at the rate ibsim simulates).
#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "plan_rows.h"
#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "topo/fabric_io.h"
#include "wiring/fat_tree.h"
#include "wiring/from_fabric.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::wiring {
namespace {

// Discovers `design` in ibsim with ibnetdiscover; returns the discovered fabric.
topo::Fabric discover(const FatTreeDesign& design, const NetfileOptions& options) {
  testing::TempDir dir;
  const std::string net = dir.file("design.net");
  write_file_atomic(net, to_ibsim_netfile(design, options));
  testing::SimOptions sim;
  sim.opensm = false;  // ibnetdiscover walks directed routes: no SM needed
  sim.start_timeout = std::chrono::seconds(180);
  testing::SimFabric fabric(net, sim);
  testing::CommandResult r = fabric.run({"ibnetdiscover"}, std::chrono::seconds(180));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return topo::parse_fabric_text(r.out, "ibnetdiscover-in-ibsim");
}

void expect_discovery_matches_plan(const FatTreeDesign& design, bool generic) {
  NetfileOptions options;
  options.generic_switch_descriptions = generic;
  topo::Fabric seen = discover(design, options);
  ASSERT_EQ(seen.size(), design.switches.size() + design.hcas.size());
  // GUIDs are the design's, so the generated map names every switch.
  node_name_map(design).apply(seen);
  for (const FatTreeSwitch& s : design.switches) {
    auto id = seen.find_guid(s.guid);
    ASSERT_TRUE(id) << s.name;
    EXPECT_EQ(seen.node(*id).description, generic ? kGenericSwitchDescription : s.name);
  }
  expect_same_plan(plan_rows(design.wiring, true), plan_rows(wiring_from_fabric(seen, "discovered")));
}

class GeneratedDesignInIbsim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::SimFabric::available()) GTEST_SKIP() << "ibsim/opensm/umad2sim not installed";
  }
};

TEST_F(GeneratedDesignInIbsim, TwoTierRails) {
  FatTreeSpec s;
  s.tiers = 2;
  s.radix = 8;
  s.hosts = 6;
  s.hcas_per_host = 2;
  expect_discovery_matches_plan(generate_fat_tree(s), false);
}

TEST_F(GeneratedDesignInIbsim, ThreeTierPackedAt1xEdr) {
  FatTreeSpec s;
  s.radix = 8;
  s.hosts = 10;
  s.hcas_per_host = 2;
  s.rail_optimized = false;
  s.rate = {topo::Width::X1, topo::Speed::EDR};
  FatTreeDesign d = generate_fat_tree(s);
  ASSERT_EQ(d.shape.pods, 2);
  expect_discovery_matches_plan(d, false);
}

TEST_F(GeneratedDesignInIbsim, FieldNotesWithGenericSwitchDescriptions) {
  expect_discovery_matches_plan(generate_fat_tree(*fat_tree_preset("field-notes")), true);
}

}  // namespace
}  // namespace ibburn::wiring
