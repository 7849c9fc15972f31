#include "burn/verbs/qp_address.h"

#include <gtest/gtest.h>

#include <cstring>

namespace ibburn::burn::verbs {
namespace {

FlowAddress sample() {
  FlowAddress a;
  a.stage = 3;
  a.flow_id = 17;
  a.endpoint = "mlx5_3:1";
  a.lid = 0x2a;
  a.roce = false;
  for (int i = 0; i < 16; ++i) a.gid.raw[i] = static_cast<uint8_t>(0xf0 + i);
  a.subnet_prefix = 0xfe80000000000000ull;
  a.mtu = IBV_MTU_2048;
  a.addr = 0x7f0012345000ull;
  a.rkey = 0xdeadbeef;
  a.slot_bytes = 8u << 20;
  a.qps = {{0x101, 0xabcdef}, {0x102, 7}};
  return a;
}

TEST(QpAddress, BlobRoundTrips) {
  const FlowAddress a = sample();
  const FlowAddress b = decode_flow_address(encode(a));
  EXPECT_EQ(b.stage, 3u);
  EXPECT_EQ(b.flow_id, 17u);
  EXPECT_EQ(b.lid, 0x2a);
  EXPECT_EQ(std::memcmp(b.gid.raw, a.gid.raw, 16), 0);
  EXPECT_EQ(b.mtu, IBV_MTU_2048);
  EXPECT_EQ(b.addr, a.addr);
  EXPECT_EQ(b.rkey, a.rkey);
  EXPECT_EQ(b.slot_bytes, a.slot_bytes);
  ASSERT_EQ(b.qps.size(), 2u);
  EXPECT_EQ(b.qps[0].qpn, 0x101u);
  EXPECT_EQ(b.qps[0].psn, 0xabcdefu);
}

TEST(QpAddress, BlobCarriesTheGidKindSubnetAndEndpoint) {
  FlowAddress a = sample();
  a.roce = true;
  a.gid_index = 3;
  a.gid = {};
  a.gid.raw[10] = a.gid.raw[11] = 0xff;
  a.gid.raw[12] = 10;
  a.gid_type = IBV_GID_TYPE_ROCE_V2;
  a.subnet_prefix = 0xfe800000000000a1ull;
  const AddressBlob blob = encode(a);
  const FlowAddress b = decode_flow_address(blob);
  EXPECT_EQ(b.endpoint, "mlx5_3:1");
  EXPECT_EQ(b.gid_index, 3);
  EXPECT_EQ(b.gid_type, IBV_GID_TYPE_ROCE_V2);
  EXPECT_EQ(b.subnet_prefix, 0xfe800000000000a1ull);
  const std::string text(blob.begin(), blob.end());
  EXPECT_NE(text.find("\"gid_family\":\"IPv4\""), std::string::npos) << text;
  // A family that does not match the GID, or an unknown type, is a bad address.
  std::string lying = text;
  lying.replace(lying.find("IPv4"), 4, "IPv6");
  EXPECT_THROW(decode_flow_address(AddressBlob(lying.begin(), lying.end())), TransportError);
  std::string typed = text;
  typed.replace(typed.find("\"gid_type\":2"), 12, "\"gid_type\":7");
  EXPECT_THROW(decode_flow_address(AddressBlob(typed.begin(), typed.end())), TransportError);
}

PortInfo roce_port(int gid_index, ibv_gid_type type, const ibv_gid& gid) {
  PortInfo p;
  p.device = "mlx5_0";
  p.roce = true;
  p.gid_index = gid_index;
  p.gid_type = type;
  p.gid = gid;
  return p;
}

TEST(QpAddress, MismatchedEndsAreNamedBoth) {
  ibv_gid v4{}, v6{};
  v4.raw[10] = v4.raw[11] = 0xff;
  v4.raw[15] = 1;
  v6.raw[0] = 0x20;
  v6.raw[15] = 1;
  const PortInfo local = roce_port(3, IBV_GID_TYPE_ROCE_V2, v4);
  FlowAddress remote = address_of(roce_port(3, IBV_GID_TYPE_ROCE_V2, v4));
  remote.endpoint = "mlx5_7:1";
  EXPECT_FALSE(address_mismatch(local, remote).has_value());

  FlowAddress v1 = remote;
  v1.gid_type = IBV_GID_TYPE_ROCE_V1;
  v1.gid_index = 2;
  const std::string type_why = address_mismatch(local, v1).value_or("");
  EXPECT_NE(type_why.find("this end mlx5_0:1 GID 3 (RoCE v2, IPv4 ::ffff:0.0.0.1)"), std::string::npos) << type_why;
  EXPECT_NE(type_why.find("the peer mlx5_7:1 GID 2 (RoCE v1, IPv4"), std::string::npos) << type_why;

  FlowAddress ipv6 = remote;
  ipv6.gid = v6;
  const std::string family_why = address_mismatch(local, ipv6).value_or("");
  EXPECT_NE(family_why.find("IPv6 2000::1"), std::string::npos) << family_why;

  FlowAddress ib = remote;
  ib.roce = false;
  EXPECT_EQ(address_mismatch(local, ib).value_or(""),
            "link layers differ: this end mlx5_0:1 is Ethernet, the peer mlx5_7:1 InfiniBand");
  // InfiniBand GIDs are not compared: LIDs route.
  PortInfo ib_local;
  ib_local.device = "mlx5_0";
  EXPECT_FALSE(address_mismatch(ib_local, ib).has_value());
}

TEST(QpAddress, PathKnobsReachTheTransitions) {
  PathKnobs path;
  path.sl = 5;
  path.traffic_class = 106;
  path.timeout = 20;
  path.retry_cnt = 4;
  EXPECT_EQ(init_transition(1, IBV_ACCESS_REMOTE_WRITE, 2).attr.pkey_index, 2);
  const QpTransition rts = rts_transition(1, path);
  EXPECT_EQ(rts.attr.timeout, 20);
  EXPECT_EQ(rts.attr.retry_cnt, 4);
  PortInfo local;
  local.roce = true;
  FlowAddress remote = sample();
  remote.roce = true;
  const QpTransition rtr = rtr_transition(local, remote, remote.qps[0], path);
  EXPECT_EQ(rtr.attr.ah_attr.sl, 5);
  EXPECT_EQ(rtr.attr.ah_attr.grh.traffic_class, 106);
  EXPECT_EQ(rtr.attr.ah_attr.grh.hop_limit, 255);
}

TEST(QpAddress, InfinibandUsesAGrhAcrossSubnetsOrWhenThePortRequiresOne) {
  PortInfo local;
  local.subnet_prefix = 0xfe80000000000000ull;
  FlowAddress remote = sample();  // same subnet
  EXPECT_EQ(rtr_transition(local, remote, remote.qps[0], PathKnobs{}).attr.ah_attr.is_global, 0);
  remote.subnet_prefix = 0xfe800000000000b2ull;  // behind a router
  QpTransition t = rtr_transition(local, remote, remote.qps[0], PathKnobs{});
  EXPECT_EQ(t.attr.ah_attr.is_global, 1);
  EXPECT_EQ(t.attr.ah_attr.dlid, 0x2a);  // still routed by LID to the router
  EXPECT_EQ(std::memcmp(t.attr.ah_attr.grh.dgid.raw, remote.gid.raw, 16), 0);
  EXPECT_EQ(t.attr.ah_attr.grh.hop_limit, 255);
  remote.subnet_prefix = local.subnet_prefix;
  local.grh_required = true;
  EXPECT_EQ(rtr_transition(local, remote, remote.qps[0], PathKnobs{}).attr.ah_attr.is_global, 1);
}

TEST(QpAddress, GarbageIsATransportError) {
  const std::string text = "{\"tcp\":1}";
  EXPECT_THROW(decode_flow_address(AddressBlob(text.begin(), text.end())), TransportError);
  const std::string broken = "{\"verbs\":1,";
  EXPECT_THROW(decode_flow_address(AddressBlob(broken.begin(), broken.end())), TransportError);
}

TEST(QpAddress, PathMtuIsTheSmallerActiveMtu) {
  EXPECT_EQ(path_mtu(IBV_MTU_4096, IBV_MTU_2048), IBV_MTU_2048);
  EXPECT_EQ(path_mtu(IBV_MTU_1024, IBV_MTU_4096), IBV_MTU_1024);
}

TEST(QpAddress, InfinibandAddressesByLid) {
  PortInfo local;
  local.port = 1;
  local.active_mtu = IBV_MTU_4096;
  local.subnet_prefix = 0xfe80000000000000ull;
  const FlowAddress remote = sample();
  const QpTransition t = rtr_transition(local, remote, remote.qps[1], PathKnobs{});
  EXPECT_EQ(t.attr.ah_attr.is_global, 0);
  EXPECT_EQ(t.attr.ah_attr.dlid, 0x2a);
  EXPECT_EQ(t.attr.dest_qp_num, 0x102u);
  EXPECT_EQ(t.attr.rq_psn, 7u);
  EXPECT_EQ(t.attr.path_mtu, IBV_MTU_2048);
  EXPECT_TRUE(t.mask & IBV_QP_AV);
}

TEST(QpAddress, RoceAddressesByGid) {
  PortInfo local;
  local.roce = true;
  local.gid_index = 3;
  local.active_mtu = IBV_MTU_1024;
  FlowAddress remote = sample();
  remote.roce = true;
  remote.lid = 0;
  const QpTransition t = rtr_transition(local, remote, remote.qps[0], PathKnobs{});
  EXPECT_EQ(t.attr.ah_attr.is_global, 1);
  EXPECT_EQ(std::memcmp(t.attr.ah_attr.grh.dgid.raw, remote.gid.raw, 16), 0);
  EXPECT_EQ(t.attr.ah_attr.grh.sgid_index, 3);
  EXPECT_EQ(t.attr.path_mtu, IBV_MTU_1024);
}

TEST(QpAddress, RtsRetriesAndInitAccess) {
  const QpTransition rts = rts_transition(0x123, PathKnobs{});
  EXPECT_EQ(rts.attr.sq_psn, 0x123u);
  EXPECT_EQ(rts.attr.retry_cnt, 7);
  EXPECT_EQ(rts.attr.rnr_retry, 7);
  const QpTransition init = init_transition(2, IBV_ACCESS_REMOTE_WRITE, 0);
  EXPECT_EQ(init.attr.port_num, 2);
  EXPECT_EQ(init.attr.qp_access_flags, IBV_ACCESS_REMOTE_WRITE);
}

}  // namespace
}  // namespace ibburn::burn::verbs
