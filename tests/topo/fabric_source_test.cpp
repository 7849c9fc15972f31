// One fabric source for every command: files (merged), live, the node-name-map.
#include "topo/fabric_source.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "topo/fabric_io.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::topo;

namespace {

class FabricSourceTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = tmp_.path(); }

  // One switch with `hosts` HCAs; node GUIDs start at `base`.
  std::string write_island(const std::string& name, uint64_t base, int hosts) {
    Fabric f;
    NodeId sw = f.add_node(NodeType::Switch, base, "switch " + name, 8);
    for (int i = 0; i < hosts; ++i) {
      NodeId h = f.add_node(NodeType::CA, base + 1 + i, name + "-host" + std::to_string(i) + " mlx5_0", 1);
      f.connect({sw, i + 1}, {h, 1});
    }
    const std::string path = dir_ + "/" + name + ".json";
    save_fabric_file(f, path);
    return path;
  }
  ibburn::testing::TempDir tmp_;
  std::string dir_;
};

TEST_F(FabricSourceTest, NoFilesOrLiveMeansLiveDiscovery) {
  FabricSource s;
  EXPECT_TRUE(s.is_live());
  EXPECT_EQ(s.name(), "live");
  s.files = {"live"};
  EXPECT_TRUE(s.is_live());
  EXPECT_EQ(s.vantage_points(), 1);
  s.files = {"a.json"};
  EXPECT_FALSE(s.is_live());
}

TEST_F(FabricSourceTest, SeveralFilesAreMergedAndCountAsVantagePoints) {
  FabricSource s;
  s.files = {write_island("a", 0x100, 2), write_island("b", 0x200, 3)};
  Fabric f = s.load();
  EXPECT_EQ(f.switch_count(), 2u);
  EXPECT_EQ(f.ca_count(), 5u);
  EXPECT_EQ(s.vantage_points(), 2);
  EXPECT_EQ(s.name(), s.files[0] + ", " + s.files[1]);
}

TEST_F(FabricSourceTest, EachSourceIsASubnetItsNodesPointAtAndJsonKeepsThem) {
  FabricSource s;
  s.files = {write_island("a", 0x100, 2), write_island("b", 0x200, 3)};
  Fabric f = s.load();
  ASSERT_EQ(f.subnets().size(), 2u);
  EXPECT_EQ(f.subnets()[0].source, s.files[0]);
  EXPECT_EQ(f.subnets()[1].source, s.files[1]);
  EXPECT_EQ(f.node(*f.find_guid(0x101)).subnet, 0);
  EXPECT_EQ(f.node(*f.find_guid(0x203)).subnet, 1);
  f.subnets()[1].plane = 2;
  f.subnets()[1].prefix = 0xfe80000000000002ULL;
  f.subnets()[1].sm_probed = f.subnets()[1].sm_master = true;
  f.subnets()[1].sm_lid = 7;
  f.subnets()[1].sm_guid = 0x201;
  const std::string path = dir_ + "/merged.json";
  save_fabric_file(f, path);
  const Fabric back = load_fabric_file(path);
  ASSERT_EQ(back.subnets().size(), 2u);
  const Subnet& b = back.subnets()[1];
  EXPECT_EQ(b.source, s.files[1]);
  EXPECT_EQ(b.plane, 2);
  EXPECT_EQ(b.prefix, 0xfe80000000000002ULL);
  EXPECT_TRUE(b.sm_probed && b.sm_master);
  EXPECT_EQ(b.sm_lid, 7);
  EXPECT_EQ(b.sm_guid, 0x201u);
  EXPECT_EQ(back.plane(*back.find_guid(0x203)), 2);
  EXPECT_EQ(back.plane(*back.find_guid(0x101)), 0);
}

TEST_F(FabricSourceTest, APortThatCannotBeDiscoveredAmongSeveralSourcesIsAnEmptySubnetSayingWhy) {
  FabricSource s;
  s.files = {write_island("a", 0x100, 2), "live:nosuchhca99:1"};
  Fabric f = s.load();
  EXPECT_EQ(f.size(), 3u);
  ASSERT_EQ(f.subnets().size(), 2u);
  EXPECT_EQ(f.subnets()[1].source, "live:nosuchhca99:1");
  EXPECT_FALSE(f.subnets()[1].error.empty());
  // Alone, the same source is the command's error.
  s.files = {"live:nosuchhca99:1"};
  EXPECT_THROW(s.load(), EnvironmentError);
}

TEST_F(FabricSourceTest, ALivePortIsNamedWithItsHcaAndANumber) {
  FabricSource s;
  for (const char* bad : {"live:", "live:mlx5_0:x", "live:mlx5_0:0", "live:mlx5_0:1x"}) {
    s.files = {write_island("a", 0x100, 1), bad};
    EXPECT_THROW(s.load(), InputError) << bad;
  }
  s.files = {write_island("a", 0x100, 1), "live:mlx5_0:x"};
  try {
    s.load();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--fabric: 'live:mlx5_0:x': bad port 'x' (1..254)");
  }
}

TEST_F(FabricSourceTest, NodeNameMapNamesTheNodes) {
  FabricSource s;
  s.files = {write_island("a", 0x100, 1)};
  s.node_name_map = dir_ + "/map";
  write_file_atomic(s.node_name_map, "0x100 \"leaf01\"\n");
  Fabric f = s.load();
  ASSERT_TRUE(f.find_name("leaf01").has_value());
}

TEST_F(FabricSourceTest, LiveNextToFilesIsAUsageError) {
  FabricSource s;
  s.files = {write_island("a", 0x100, 1), "live"};
  try {
    s.load();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--fabric: 'live' cannot be merged with other sources (name the port: live:CA[:PORT])");
  }
}

TEST_F(FabricSourceTest, MissingFileNamesIt) {
  FabricSource s;
  s.files = {dir_ + "/absent.json"};
  try {
    s.load();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), dir_ + "/absent.json");
  }
}

}  // namespace
