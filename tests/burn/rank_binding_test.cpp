#include <gtest/gtest.h>

#include "burn/rank_binding.h"
#include "common/error.h"

using namespace ibburn;
using namespace ibburn::burn;

TEST(RankMap, ParsesLinesWithOptions) {
  auto m = parse_rank_map("# comment\nnode1 0 mlx5_0:1 gpu=0\nnode1 1 mlx5_1:1 gpu=1 netns=ns1\n* 0 eth0\n\n", "map");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[1].binding.endpoint, "mlx5_1:1");
  EXPECT_EQ(m[1].binding.gpu, 1);
  EXPECT_EQ(m[1].binding.netns, "ns1");
  EXPECT_EQ(m[2].host, "*");
}

TEST(RankMap, BadLinesNameFileAndLine) {
  auto bad = [](const std::string& text, const std::string& needle) {
    try {
      parse_rank_map(text, "ranks.map");
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  bad("a 0 x\nb\n", "ranks.map:2:");
  bad("a x y\n", "not a non-negative integer");
  bad("a 0 x foo=1\n", "unknown option");
  bad("a 0 x\na 0 y\n", "mapped twice");
}

TEST(RankBinding, MapFirstThenFlagsThenDefault) {
  auto m = parse_rank_map("node1 0 A\n* 1 B\n", "map");
  EXPECT_EQ(select_binding(m, "node1", 0, {}, {}, {}).endpoint, "A");
  EXPECT_EQ(select_binding(m, "node2", 1, {}, {}, {}).endpoint, "B");
  EXPECT_THROW(select_binding(m, "node2", 0, {}, {}, {}), Error);
  Binding b = select_binding({}, "h", 1, {"10.0.0.1", "10.0.0.2"}, {"n0", "n1"}, {4, 5});
  EXPECT_EQ(b.endpoint, "10.0.0.2");
  EXPECT_EQ(b.netns, "n1");
  EXPECT_EQ(b.gpu, 5);
  EXPECT_EQ(select_binding({}, "h", 3, {}, {}, {}).endpoint, "");
  EXPECT_THROW(select_binding({}, "h", 2, {"a", "b"}, {}, {}), Error);
}

// The default port of a verbs rank on a DGX-class host: 12 mlx5 devices, 8 compute InfiniBand,
// 2 storage InfiniBand (mlx5_4, mlx5_10), 2 Ethernet (mlx5_5, mlx5_11), listed the way
// libibverbs hands them out (discovery order, not by name).
namespace {

std::vector<CandidatePort> dgx_ports() {
  std::vector<CandidatePort> p;
  for (int i : {11, 7, 10, 2, 5, 9, 0, 4, 8, 1, 6, 3}) p.push_back({"mlx5_" + std::to_string(i), 1, i == 5 || i == 11});
  return p;
}

// The host check's pairing, GPU address order; the compute HCAs are not in name order.
const std::vector<std::pair<std::string, std::string>> kPairing = {
    {"0000:18:00.0", "mlx5_0"}, {"0000:2a:00.0", "mlx5_3"}, {"0000:3a:00.0", "mlx5_2"}, {"0000:5d:00.0", "mlx5_1"},
    {"0000:9a:00.0", "mlx5_6"}, {"0000:ab:00.0", "mlx5_9"}, {"0000:ba:00.0", "mlx5_8"}, {"0000:db:00.0", "mlx5_7"}};

std::string refusal(std::vector<CandidatePort> ports, const std::vector<std::pair<std::string, std::string>>& pairing,
                    int local_rank, int local_ranks) {
  try {
    const PortChoice c = default_port(std::move(ports), pairing, local_rank, local_ranks);
    return "chose " + c.device;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), kExitInput) << e.what();
    return e.what();
  }
}

}  // namespace

TEST(DefaultPort, PairingGivesRankITheHcaOfTheIthGpu) {
  for (int rank = 0; rank < 8; ++rank) {
    const PortChoice c = default_port(dgx_ports(), kPairing, rank, 8);
    EXPECT_EQ(c.device, kPairing[static_cast<size_t>(rank)].second);
    EXPECT_EQ(c.port, 1);
    EXPECT_NE(c.why.find(kPairing[static_cast<size_t>(rank)].first), std::string::npos) << c.why;
  }
}

TEST(DefaultPort, PairingWithFewerPairsThanRanksOrADownHcaRefuses) {
  EXPECT_NE(refusal(dgx_ports(), kPairing, 8, 9).find("pairs only 8 GPUs"), std::string::npos);
  auto ports = dgx_ports();
  std::erase_if(ports, [](const CandidatePort& p) { return p.device == "mlx5_3"; });  // its link is down
  const std::string why = refusal(ports, kPairing, 1, 8);
  EXPECT_NE(why.find("mlx5_3, paired with GPU 0000:2a:00.0, has no active port"), std::string::npos) << why;
  EXPECT_NE(why.find("--map"), std::string::npos) << why;
}

TEST(DefaultPort, WithoutPairingMorePortsThanRanksIsAmbiguous) {
  // 10 InfiniBand ports for 8 ranks: nothing tells storage from compute.
  const std::string why = refusal(dgx_ports(), {}, 0, 8);
  EXPECT_NE(why.find("10 active InfiniBand ports"), std::string::npos) << why;
  EXPECT_NE(why.find("--map"), std::string::npos) << why;
}

TEST(DefaultPort, WithoutPairingPortsGoByNaturalNameOrderOfTheMajorityLinkLayer) {
  const std::vector<std::string> expected = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4",
                                             "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10"};
  for (int rank = 0; rank < 10; ++rank) {
    const PortChoice c = default_port(dgx_ports(), {}, rank, 10);
    EXPECT_EQ(c.device, expected[static_cast<size_t>(rank)]) << "local rank " << rank;
    EXPECT_NE(c.why.find("2 Ethernet left out"), std::string::npos) << c.why;
  }
}

TEST(DefaultPort, LinkLayerTieRefusesAndMajorityEthernetWins) {
  const std::vector<CandidatePort> tie = {{"mlx5_0", 1, false}, {"mlx5_1", 1, true}};
  EXPECT_NE(refusal(tie, {}, 0, 2).find("as many InfiniBand as Ethernet ports"), std::string::npos);
  const std::vector<CandidatePort> roce = {
      {"mlx5_2", 1, true}, {"mlx5_0", 1, false}, {"mlx5_1", 2, true}, {"mlx5_1", 1, true}};
  EXPECT_EQ(default_port(roce, {}, 0, 3).device, "mlx5_1");
  EXPECT_EQ(default_port(roce, {}, 1, 3).port, 2);
  EXPECT_EQ(default_port(roce, {}, 2, 3).device, "mlx5_2");
}

TEST(DefaultPort, MoreRanksThanPortsShareThemAndNoPortIsAnEnvironmentError) {
  const std::vector<CandidatePort> two = {{"mlx5_1", 1, false}, {"mlx5_0", 1, false}};
  const PortChoice c = default_port(two, {}, 3, 4);
  EXPECT_EQ(c.device, "mlx5_1");
  EXPECT_NE(c.why.find("shared"), std::string::npos) << c.why;
  EXPECT_THROW(default_port({}, {}, 0, 1), EnvironmentError);
}

TEST(DefaultPort, NaturalOrderComparesDigitRunsAsNumbers) {
  EXPECT_TRUE(natural_less("mlx5_2", "mlx5_10"));
  EXPECT_FALSE(natural_less("mlx5_10", "mlx5_2"));
  EXPECT_TRUE(natural_less("mlx5_9", "mlx5_10"));
  EXPECT_TRUE(natural_less("ibp1s0", "ibp12s0"));
  EXPECT_TRUE(natural_less("mlx4_0", "mlx5_0"));
  EXPECT_TRUE(natural_less("mlx5", "mlx5_0"));
  EXPECT_FALSE(natural_less("mlx5_3", "mlx5_3"));
}
