#include "topo/link_rate.h"

#include <gtest/gtest.h>

using namespace ibburn::topo;

TEST(LinkRate, ParsesAndPrints) {
  auto r = parse_link_rate("4xNDR");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->width, Width::X4);
  EXPECT_EQ(r->speed, Speed::NDR);
  EXPECT_DOUBLE_EQ(r->data_gbps(), 400.0);
  EXPECT_EQ(to_string(*r), "4xNDR");
  EXPECT_EQ(to_string(*parse_link_rate("4X FDR10")), "4xFDR10");
  EXPECT_EQ(parse_link_rate("2xNDR")->data_gbps(), 200.0);
  EXPECT_FALSE(parse_link_rate("NDR"));
  EXPECT_FALSE(parse_link_rate("4xZDR"));
  EXPECT_FALSE(parse_link_rate("3xHDR"));
}

TEST(LinkRate, DecodesPortInfoSpeeds) {
  EXPECT_EQ(speed_from_portinfo(1, 0, 0, false), Speed::SDR);
  EXPECT_EQ(speed_from_portinfo(4, 0, 0, true), Speed::FDR10);
  EXPECT_EQ(speed_from_portinfo(4, 1, 0, false), Speed::FDR);
  EXPECT_EQ(speed_from_portinfo(4, 2, 0, false), Speed::EDR);
  EXPECT_EQ(speed_from_portinfo(4, 4, 0, false), Speed::HDR);
  EXPECT_EQ(speed_from_portinfo(4, 8, 0, false), Speed::NDR);
  EXPECT_EQ(speed_from_portinfo(4, 0, 1, false), Speed::XDR);
  EXPECT_EQ(width_from_portinfo(2), Width::X4);
  EXPECT_EQ(width_from_portinfo(16), Width::X2);
  EXPECT_EQ(width_from_portinfo(1), Width::X1);
}
