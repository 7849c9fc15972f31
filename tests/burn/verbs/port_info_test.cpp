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

ibv_gid gid(std::initializer_list<uint8_t> head, std::initializer_list<uint8_t> tail = {}) {
  ibv_gid g{};
  std::copy(head.begin(), head.end(), g.raw);
  std::copy(tail.begin(), tail.end(), g.raw + 16 - tail.size());
  return g;
}
const ibv_gid kLinkLocal = gid({0xfe, 0x80}, {0x02, 0xc9, 0x03, 0xff, 0xfe, 0x00, 0x00, 0x01});
const ibv_gid kV4 = gid({}, {0, 0, 0xff, 0xff, 10, 1, 2, 3});  // ::ffff:10.1.2.3
const ibv_gid kV6 = gid({0x20, 0x01, 0x0d, 0xb8}, {0x01});     // 2001:db8::1

// A ConnectX RoCE port with IPv6 and IPv4 addresses, v1 entries first and holes (removed
// addresses): what the default must see through.
std::vector<GidEntry> roce_table() {
  return {{0, kLinkLocal, IBV_GID_TYPE_ROCE_V1}, {1, kLinkLocal, IBV_GID_TYPE_ROCE_V2}, {2, kV6, IBV_GID_TYPE_ROCE_V1},
          {3, kV6, IBV_GID_TYPE_ROCE_V2},        {5, kV4, IBV_GID_TYPE_ROCE_V1},        {6, kV4, IBV_GID_TYPE_ROCE_V2}};
}

std::string refusal(const std::vector<GidEntry>& valid, bool roce, std::optional<int> wanted) {
  try {
    return "chose " + std::to_string(choose_gid(valid, 8, roce, wanted, "mlx5_4:1").index);
  } catch (const Error& e) {
    return e.what();
  }
}

TEST(GidChoice, AddressKinds) {
  EXPECT_TRUE(gid_is_ipv4_mapped(kV4));
  EXPECT_FALSE(gid_is_ipv4_mapped(kV6));
  EXPECT_TRUE(gid_is_link_local(kLinkLocal));
  EXPECT_FALSE(gid_is_link_local(kV4));
  EXPECT_EQ(gid_text(kV4), "::ffff:10.1.2.3");
  EXPECT_EQ(gid_text(kV6), "2001:db8::1");
  EXPECT_STREQ(gid_family(kV4), "IPv4");
  EXPECT_STREQ(gid_family(kLinkLocal), "IPv6");
  EXPECT_STREQ(gid_type_name(IBV_GID_TYPE_ROCE_V2), "RoCE v2");
}

TEST(GidChoice, RoceTakesTheRoceV2Ipv4Entry) {
  EXPECT_EQ(choose_gid(roce_table(), 8, true, std::nullopt, "mlx5_4:1").index, 6);
  // Without an IPv4 address, the global IPv6 one; never the link-local v2 entry at 1.
  auto v6_only = roce_table();
  v6_only.resize(4);
  EXPECT_EQ(choose_gid(v6_only, 8, true, std::nullopt, "mlx5_4:1").index, 3);
}

TEST(GidChoice, RoceWithoutARoutableV2EntryRefusesListingTheTable) {
  const std::vector<GidEntry> link_local_only = {
      {0, kLinkLocal, IBV_GID_TYPE_ROCE_V1}, {1, kLinkLocal, IBV_GID_TYPE_ROCE_V2}, {2, kV4, IBV_GID_TYPE_ROCE_V1}};
  const std::string why = refusal(link_local_only, true, std::nullopt);
  EXPECT_NE(why.find("mlx5_4:1 has no RoCE v2 GID"), std::string::npos) << why;
  EXPECT_NE(why.find("2 RoCE v1 ::ffff:10.1.2.3"), std::string::npos) << why;
  EXPECT_NE(why.find("--opt gid_index"), std::string::npos) << why;
  EXPECT_NE(refusal({}, true, std::nullopt).find("no valid entry"), std::string::npos);
}

TEST(GidChoice, InfinibandKeepsIndexZero) {
  const std::vector<GidEntry> ib = {{0, kLinkLocal, IBV_GID_TYPE_IB}, {1, kV6, IBV_GID_TYPE_IB}};
  EXPECT_EQ(choose_gid(ib, 128, false, std::nullopt, "mlx5_0:1").index, 0);
  EXPECT_EQ(choose_gid(ib, 128, false, 1, "mlx5_0:1").index, 1);  // an override is taken as given
  EXPECT_THROW(choose_gid({{1, kV6, IBV_GID_TYPE_IB}}, 128, false, std::nullopt, "mlx5_0:1"), EnvironmentError);
}

TEST(GidChoice, OverrideIsValidated) {
  EXPECT_EQ(choose_gid(roce_table(), 8, true, 3, "mlx5_4:1").index, 3);
  EXPECT_EQ(choose_gid(roce_table(), 8, true, 1, "mlx5_4:1").index, 1);  // v2 link-local: the user's call
  const std::string beyond = refusal(roce_table(), true, 8);
  EXPECT_EQ(beyond.rfind("--opt: gid_index=8: mlx5_4:1 has 8 GID entries", 0), 0u) << beyond;
  const std::string empty = refusal(roce_table(), true, 4);
  EXPECT_NE(empty.find("mlx5_4:1's GID 4 is empty"), std::string::npos) << empty;
  const std::string v1 = refusal(roce_table(), true, 5);
  EXPECT_NE(v1.find("GID 5 RoCE v1 ::ffff:10.1.2.3 is not RoCE v2"), std::string::npos) << v1;
}

}  // namespace
}  // namespace ibburn::burn::verbs
