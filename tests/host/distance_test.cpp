#include "host/distance.h"

#include <gtest/gtest.h>

using namespace ibburn::host;

namespace {
PciFunction at(std::string bdf, std::string host_bridge, std::vector<std::string> bridges, int numa) {
  PciFunction f;
  f.bdf = std::move(bdf);
  f.host_bridge = std::move(host_bridge);
  f.bridges = std::move(bridges);
  f.numa_node = numa;
  return f;
}
}  // namespace

TEST(Distance, FromThePciTree) {
  // Root port R, switch upstream U, downstream ports D1 D2; a second-level switch U2/D3 under D2.
  auto gpu = at("g", "pci0000:15", {"R", "U", "D1"}, 0);
  auto hca_same_switch = at("h1", "pci0000:15", {"R", "U", "D2"}, 0);
  auto hca_second_switch = at("h2", "pci0000:15", {"R", "U", "D2", "U2", "D3"}, 0);
  auto hca_other_root_port = at("h3", "pci0000:15", {"R2", "U3", "D4"}, 0);
  auto hca_other_host_bridge = at("h4", "pci0000:3f", {"R5", "U5", "D5"}, 0);
  auto hca_other_socket = at("h5", "pci0000:9a", {"R6", "U6", "D6"}, 1);
  auto second_function = at("h6", "pci0000:15", {"R", "U", "D1"}, 0);
  EXPECT_EQ(distance(gpu, hca_same_switch), Distance::PIX);
  EXPECT_EQ(distance(gpu, second_function), Distance::PIX);
  EXPECT_EQ(distance(gpu, hca_second_switch), Distance::PXB);
  EXPECT_EQ(distance(gpu, hca_other_root_port), Distance::PHB);
  EXPECT_EQ(distance(gpu, hca_other_host_bridge), Distance::NODE);
  EXPECT_EQ(distance(gpu, hca_other_socket), Distance::SYS);
  EXPECT_EQ(distance(hca_other_socket, gpu), Distance::SYS);
  // A kernel that does not know the NUMA node (-1) is taken as one node.
  hca_other_socket.numa_node = -1;
  EXPECT_EQ(distance(gpu, hca_other_socket), Distance::NODE);
}

TEST(Distance, BridgesBetweenArePathsBelowTheMeetingPoint) {
  auto gpu = at("g", "pci0000:15", {"R", "U", "D1"}, 0);
  auto hca = at("h", "pci0000:15", {"R", "U", "D2", "U2", "D3"}, 0);
  EXPECT_EQ(bridges_between(gpu, hca), (std::vector<std::string>{"U", "D1", "D2", "U2", "D3"}));
  auto far = at("f", "pci0000:3f", {"R5"}, 0);
  EXPECT_TRUE(bridges_between(gpu, far).empty());
}

TEST(Distance, NamesRoundTrip) {
  for (auto d : {Distance::PIX, Distance::PXB, Distance::PHB, Distance::NODE, Distance::SYS})
    EXPECT_EQ(distance_from_string(to_string(d)), d);
  EXPECT_EQ(distance_from_string("NV12"), std::nullopt);
}

TEST(Pairing, GreedyNearestFirstAndLeftovers) {
  HostInventory inv;
  auto add = [&](PciFunction f) { inv.pci.emplace(f.bdf, f); };
  // Two GPUs share a switch with one HCA; a second HCA sits on the other socket.
  add(at("0000:1b:00.0", "pci0000:15", {"R", "U", "D1"}, 0));
  add(at("0000:1c:00.0", "pci0000:15", {"R", "U", "D2"}, 0));
  add(at("0000:1d:00.0", "pci0000:15", {"R", "U", "D3"}, 0));
  add(at("0000:9d:00.0", "pci0000:9a", {"R9", "U9", "D9"}, 1));
  inv.gpus = {{"GPU0", "0000:1b:00.0"}, {"GPU1", "0000:1c:00.0"}};
  inv.hcas = {{"mlx5_0", "0000:1d:00.0", "", "", {}, ""}, {"mlx5_1", "0000:9d:00.0", "", "", {}, ""}};
  auto pairs = pair_gpus_with_hcas(inv);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].gpu, "GPU0");
  EXPECT_EQ(pairs[0].hca, "mlx5_0");
  EXPECT_EQ(pairs[0].distance, Distance::PIX);
  EXPECT_EQ(pairs[1].gpu, "GPU1");
  EXPECT_EQ(pairs[1].hca, "mlx5_1");
  EXPECT_EQ(pairs[1].distance, Distance::SYS);

  inv.hcas.pop_back();  // now GPU1 has no HCA left
  pairs = pair_gpus_with_hcas(inv);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].gpu, "GPU0");
}
