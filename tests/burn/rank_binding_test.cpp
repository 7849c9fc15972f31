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
