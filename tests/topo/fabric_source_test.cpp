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
    EXPECT_EQ(std::string(e.what()), "--fabric: 'live' cannot be merged with fabric files");
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
