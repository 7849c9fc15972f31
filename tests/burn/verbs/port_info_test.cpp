#include "burn/verbs/port_info.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ibburn::burn::verbs {
namespace {

TEST(PortInfo, RateFromVerbsWidthAndSpeed) {
  // Width uses the PortInfo flags: 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x.
  EXPECT_DOUBLE_EQ(port_rate_gbps(2, 128), 400.0);   // 4x NDR
  EXPECT_DOUBLE_EQ(port_rate_gbps(2, 64), 200.0);    // 4x HDR
  EXPECT_DOUBLE_EQ(port_rate_gbps(16, 128), 200.0);  // 2x NDR (NDR200)
  EXPECT_DOUBLE_EQ(port_rate_gbps(2, 32), 100.0);    // 4x EDR
  EXPECT_DOUBLE_EQ(port_rate_gbps(1, 1), 2.0);       // 1x SDR
  EXPECT_DOUBLE_EQ(port_rate_gbps(2, 0), 0.0);
}

TEST(PortInfo, BindParses) {
  EXPECT_EQ(parse_bind("mlx5_3:2"), (std::pair<std::string, uint8_t>{"mlx5_3", 2}));
  EXPECT_EQ(parse_bind("mlx5_0"), (std::pair<std::string, uint8_t>{"mlx5_0", 1}));
  EXPECT_THROW(parse_bind("mlx5_0:x"), InputError);
  EXPECT_THROW(parse_bind(":1"), InputError);
  EXPECT_THROW(parse_bind("mlx5_0:0"), InputError);
}

}  // namespace
}  // namespace ibburn::burn::verbs
