#include "burn/verbs/qp_address.h"

#include <gtest/gtest.h>

#include <cstring>

namespace ibburn::burn::verbs {
namespace {

FlowAddress sample() {
  FlowAddress a;
  a.stage = 3;
  a.flow_id = 17;
  a.lid = 0x2a;
  a.roce = false;
  for (int i = 0; i < 16; ++i) a.gid.raw[i] = static_cast<uint8_t>(0xf0 + i);
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

TEST(QpAddress, GarbageIsATransportError) {
  const std::string text = "{\"tcp\":1}";
  EXPECT_THROW(decode_flow_address(AddressBlob(text.begin(), text.end())), TransportError);
  const std::string broken = "{\"verbs\":1,";
  EXPECT_THROW(decode_flow_address(AddressBlob(broken.begin(), broken.end())), TransportError);
}

TEST(QpAddress, PathMtuIsTheSmallerActiveMtu) {
  EXPECT_EQ(path_mtu(IBV_MTU_4096, IBV_MTU_2048), IBV_MTU_2048);
  EXPECT_EQ(path_mtu(IBV_MTU_1024, IBV_MTU_4096), IBV_MTU_1024);
  EXPECT_EQ(mtu_bytes(IBV_MTU_4096), 4096);
  EXPECT_EQ(mtu_bytes(IBV_MTU_256), 256);
}

TEST(QpAddress, InfinibandAddressesByLid) {
  PortInfo local;
  local.port = 1;
  local.active_mtu = IBV_MTU_4096;
  const FlowAddress remote = sample();
  const QpTransition t = rtr_transition(local, remote, remote.qps[1]);
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
  const QpTransition t = rtr_transition(local, remote, remote.qps[0]);
  EXPECT_EQ(t.attr.ah_attr.is_global, 1);
  EXPECT_EQ(std::memcmp(t.attr.ah_attr.grh.dgid.raw, remote.gid.raw, 16), 0);
  EXPECT_EQ(t.attr.ah_attr.grh.sgid_index, 3);
  EXPECT_EQ(t.attr.path_mtu, IBV_MTU_1024);
}

TEST(QpAddress, RtsRetriesAndInitAccess) {
  const QpTransition rts = rts_transition(0x123);
  EXPECT_EQ(rts.attr.sq_psn, 0x123u);
  EXPECT_EQ(rts.attr.retry_cnt, 7);
  EXPECT_EQ(rts.attr.rnr_retry, 7);
  const QpTransition init = init_transition(2, IBV_ACCESS_REMOTE_WRITE);
  EXPECT_EQ(init.attr.port_num, 2);
  EXPECT_EQ(init.attr.qp_access_flags, IBV_ACCESS_REMOTE_WRITE);
}

}  // namespace
}  // namespace ibburn::burn::verbs
