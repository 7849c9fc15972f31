#include "price/placement.h"

#include <set>

#include <gtest/gtest.h>

#include "common/error.h"
#include "tests/price/price_model.h"

using namespace ibburn;
using namespace ibburn::price;
using fixture::make_rail_fabric;
using fixture::PriceModel;

TEST(Placement, SlurmListsEachRailOptimisedHostUnderItsRailZeroLeaf) {
  PriceModel m(make_rail_fabric(2, 4, 4, 2), true);
  const SlurmLayout layout = slurm_layout(m.fabric);
  ASSERT_EQ(layout.leaves.size(), 4u);  // rail 1's leaves hold no host of their own
  for (const auto& leaf : layout.leaves) EXPECT_EQ(leaf.size(), 4u);
  ASSERT_EQ(layout.pods.size(), 1u);  // two tiers: every leaf shares the spines
  for (HostId h : layout.leaves[1]) EXPECT_EQ(m.fabric.hosts()[h].leaf, m.t.leaves[0][1]) << m.fabric.hosts()[h].name;
}

TEST(Placement, AJobTakesTheFewestLeavesThenTheFewestPods) {
  PriceModel m(make_rail_fabric(1, 4, 4, 2), true);
  const SlurmLayout layout = slurm_layout(m.fabric);
  EXPECT_EQ(placements(layout, 2).size(), 8u);  // within a leaf, two a leaf
  EXPECT_EQ(placements(layout, 3).size(), 4u);  // within a leaf, one a leaf
  EXPECT_EQ(placements(layout, 4).size(), 4u);
  EXPECT_EQ(placements(layout, 6).size(), 2u);  // past a leaf: the pod's hosts in order
  EXPECT_EQ(placements(layout, 16).size(), 1u);
  EXPECT_TRUE(placements(layout, 17).empty());
  for (const auto& p : placements(layout, 3)) {
    std::set<topo::NodeId> leaves;
    for (HostId h : p.hosts) leaves.insert(m.fabric.hosts()[h].leaf);
    EXPECT_EQ(leaves.size(), 1u);
  }
  const auto six = placements(layout, 6);
  std::set<HostId> seen;
  for (const auto& p : six)
    for (HostId h : p.hosts) EXPECT_TRUE(seen.insert(h).second) << "a host in two placements";
}

TEST(Placement, JobSizesAreNumbersOrTheFabricsOwnUnits) {
  PriceModel m(make_rail_fabric(1, 4, 4, 2), true);
  const SlurmLayout layout = slurm_layout(m.fabric);
  const auto d = parse_job_sizes("", layout, "--job-sizes");
  ASSERT_EQ(d.size(), 2u);  // one pod: no pod size apart from the whole fabric
  EXPECT_EQ(d[0].label, "leaf");
  EXPECT_EQ(d[0].hosts, 4u);
  EXPECT_EQ(d[1].label, "all");
  EXPECT_EQ(d[1].hosts, 16u);
  const auto g = parse_job_sizes("2, leaf,all", layout, "--job-sizes");
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].hosts, 2u);
  for (const char* bad : {"1", "17", "x", "2,,4", "-3"})
    EXPECT_THROW(parse_job_sizes(bad, layout, "--job-sizes"), InputError) << bad;
}
