// Slurm's topology.conf from the cabling on plain data (slurm/topology.h,
// slurm/hostlist.h): fat trees from wiring::generate_fat_tree, rails, Slurm's node names,
// and the command's bad input (slurm/topology_command.h), which fails before asking Slurm.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/error.h"
#include "slurm/hostlist.h"
#include "slurm/topology.h"
#include "slurm/topology_command.h"
#include "tests/support/temp_dir.h"
#include "wiring/fat_tree.h"

namespace ibburn::slurm {
namespace {

wiring::FatTreeDesign fat_tree(int tiers, int radix, int hosts, int hcas_per_host) {
  wiring::FatTreeSpec s;
  s.tiers = tiers;
  s.radix = radix;
  s.hosts = hosts;
  s.hcas_per_host = hcas_per_host;
  return wiring::generate_fat_tree(s);
}

// Every host is the Slurm node of its own name.
std::map<std::string, std::string> same_names(const SlurmTree& tree) {
  std::map<std::string, std::string> m;
  for (const auto& h : tree.hosts()) m[h] = h;
  return m;
}

TEST(SlurmHostlist, NumberedNamesShareBracketsPerPrefixAndWidth) {
  EXPECT_EQ(slurm_hostlist({"host003", "host001", "host002", "host010", "leaf", "x7", "host002"}),
            "leaf,host[001-003,010],x7");
  // Slurm reads host[9-10] as host9, host10 only when no number is padded: widths stay apart.
  EXPECT_EQ(slurm_hostlist({"n9", "n10", "n11", "n8"}), "n[8-9],n[10-11]");
  EXPECT_EQ(slurm_hostlist({"pod1-leaf02"}), "pod1-leaf02");
  EXPECT_EQ(slurm_hostlist({"2", "1"}), "1,2");
  EXPECT_EQ(slurm_hostlist({}), "");
}

TEST(SlurmTopology, TwoTierLeavesListTheirHostsAndSpinesTheirLeaves) {
  const auto d = fat_tree(2, 8, 8, 1);
  const SlurmTree tree(d.wiring);
  ASSERT_EQ(tree.hosts().size(), 8u);
  EXPECT_EQ(to_topology_conf(tree.topology(same_names(tree))),
            "SwitchName=leaf01 Nodes=host[001-004]\n"
            "SwitchName=leaf02 Nodes=host[005-008]\n"
            "SwitchName=spine01 Switches=leaf[01-02]\n");
}

// Radix 4: two pods of 2 leaves and 2 spines; spine s of each pod on core plane s.
TEST(SlurmTopology, ThreeTierCoresListTheirPlanesSpines) {
  const auto d = fat_tree(3, 4, 8, 1);
  const SlurmTree tree(d.wiring);
  EXPECT_EQ(to_topology_conf(tree.topology(same_names(tree))),
            "SwitchName=pod1-leaf01 Nodes=host[001-002]\n"
            "SwitchName=pod1-leaf02 Nodes=host[003-004]\n"
            "SwitchName=pod2-leaf01 Nodes=host[005-006]\n"
            "SwitchName=pod2-leaf02 Nodes=host[007-008]\n"
            "SwitchName=pod1-spine01 Switches=pod1-leaf[01-02]\n"
            "SwitchName=pod1-spine02 Switches=pod1-leaf[01-02]\n"
            "SwitchName=pod2-spine01 Switches=pod2-leaf[01-02]\n"
            "SwitchName=pod2-spine02 Switches=pod2-leaf[01-02]\n"
            "SwitchName=core01 Switches=pod1-spine01,pod2-spine01\n"
            "SwitchName=core02 Switches=pod1-spine02,pod2-spine02\n");
}

// Radix 4, 2 rails: rail 0 on leaf01-02, rail 1 on leaf03-04, every leaf on both spines.
TEST(SlurmTopology, RailOptimisedHostsAreListedUnderTheirFirstRailsLeaf) {
  const auto d = fat_tree(2, 4, 4, 2);
  const SlurmTree tree(d.wiring);
  EXPECT_EQ(tree.hosts(), (std::vector<std::string>{"host001", "host002", "host003", "host004"}));
  EXPECT_EQ(to_topology_conf(tree.topology(same_names(tree))),
            "SwitchName=leaf01 Nodes=host[001-002]\n"
            "SwitchName=leaf02 Nodes=host[003-004]\n"
            "SwitchName=spine01 Switches=leaf[01-02]\n"
            "SwitchName=spine02 Switches=leaf[01-02]\n"
            "# left out (no Slurm node below them): leaf[03-04]\n");
}

// A host with more of its HCAs on another leaf than its first HCA's is listed there (the
// spine's ports are above 2, so the plan's structure tells it from an HCA).
TEST(SlurmTopology, AHostIsListedUnderTheLeafMostOfItsPortsReach) {
  const auto plan = wiring::parse_wiring_csv(
      "a_node,a_port,b_node,b_port\n"
      "h1 mlx5_0,1,leafA,1\n"
      "h1 mlx5_1,1,leafB,1\n"
      "h1 mlx5_2,1,leafB,2\n"
      "h2 mlx5_0,1,leafA,3\n"
      "leafA,4,spine,5\n"
      "leafB,4,spine,6\n",
      "plan.csv");
  const SlurmTree tree(plan);
  EXPECT_EQ(to_topology_conf(tree.topology(same_names(tree))),
            "SwitchName=leafA Nodes=h2\n"
            "SwitchName=leafB Nodes=h1\n"
            "SwitchName=spine Switches=leafA,leafB\n");
}

TEST(SlurmTopology, HostsAreNamedAsSlurmNamesThemAndLeftOutWithoutANode) {
  const auto d = fat_tree(2, 8, 8, 1);
  const SlurmTree tree(d.wiring);
  std::map<std::string, std::string> nodes = {
      {"host001", "cl1-gpu001"}, {"host002", "cl1-gpu002"}, {"host003", "host003"}};
  const SlurmTopology t = tree.topology(nodes);
  EXPECT_EQ(to_topology_conf(t),
            "SwitchName=leaf01 Nodes=cl1-gpu[001-002],host003\n"
            "SwitchName=spine01 Switches=leaf01\n"
            "# left out (no Slurm node below them): leaf02\n");
}

TEST(SlurmTopology, ASwitchNameSlurmCannotReadNamesItsWiringLine) {
  const auto plan = wiring::parse_wiring_csv(
      "a_node,a_port,b_node,b_port\n"
      "h1 mlx5_0,1,leaf[1],1\n"
      "h2 mlx5_0,1,leaf[1],2\n"
      "h3 mlx5_0,1,leaf[1],3\n",
      "plan.csv");
  try {
    SlurmTree tree(plan);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "plan.csv");
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(e.reason().find("leaf[1]"), std::string::npos) << e.what();
  }
}

class SlurmTopologyCommand : public ::testing::Test {
 protected:
  ibburn::testing::TempDir tmp_;
  SlurmTopologyOptions o_;
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(tmp_.file(name)) << text;
    return tmp_.file(name);
  }
  // The InputError the command throws (before it asks Slurm for its nodes).
  InputError error() {
    std::ostringstream out, err;
    try {
      slurm_topology_command(o_, out, err);
    } catch (const InputError& e) {
      return e;
    }
    throw std::logic_error("no InputError");
  }
};

TEST_F(SlurmTopologyCommand, AHostTheNodeMapNamesThatIsNotCabledIsItsLine) {
  o_.wiring = write("plan.csv", wiring::to_csv(fat_tree(2, 8, 8, 1).wiring));
  o_.node_map = write("slurm.map", "# site names\nhost001 cl1-gpu001\nhots002 cl1-gpu002\n");
  const InputError e = error();
  EXPECT_EQ(e.file(), o_.node_map);
  EXPECT_EQ(e.line(), 3);
  EXPECT_NE(e.reason().find("hots002"), std::string::npos) << e.what();
}

TEST_F(SlurmTopologyCommand, ABadWiringListIsItsLine) {
  o_.wiring = write("plan.csv", "a_node,a_port,b_node,b_port\nh1 mlx5_0,1,leaf01,1\nh2 mlx5_0,x,leaf01,2\n");
  const InputError e = error();
  EXPECT_EQ(e.file(), o_.wiring);
  EXPECT_EQ(e.line(), 3);
}

}  // namespace
}  // namespace ibburn::slurm
