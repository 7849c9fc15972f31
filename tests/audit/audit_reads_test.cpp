// The audit's SMP decoders on plain bytes laid out as IBA 1.7 vol 1 14.2.5.6 (PortInfo) and
// 14.2.5.7 (P_KeyTable) place them.
#include "audit/audit_reads.h"

#include <gtest/gtest.h>

using namespace ibburn;
using namespace ibburn::audit;

TEST(AuditReads, PortInfosFieldsAtTheirOffsets) {
  std::array<uint8_t, topo::kMadDataSize> d{};
  for (int i = 0; i < 8; ++i) d[i] = static_cast<uint8_t>(0x10 + i);  // M_Key
  d[23] = 0x02;                                                       // CapabilityMask: IsSM
  d[34] = 0x80;                                                       // M_KeyProtectBits 2
  d[36] = 0x40;                                                       // NeighborMTU 4: 2048
  d[37] = 0x40;                                                       // VLCap 4: VL0-7
  d[41] = 0x05;                                                       // MTUCap 5: 4096
  d[43] = 0x3C;                                                       // OperationalVLs 3, enforcement in and out
  const PortInfoFields f = decode_port_info(d);
  EXPECT_EQ(f.mkey, 0x1011121314151617ull);
  EXPECT_TRUE(f.is_sm());
  EXPECT_EQ(f.mkey_protect_bits, 2);
  EXPECT_EQ(f.neighbor_mtu, 2048);
  EXPECT_EQ(f.mtu_cap, 4096);
  EXPECT_EQ(f.vl_cap, 8);
  EXPECT_EQ(f.operational_vls, 4);
  EXPECT_TRUE(f.enforce_inbound);
  EXPECT_TRUE(f.enforce_outbound);
  d[43] = 0x30;
  EXPECT_FALSE(decode_port_info(d).enforce_inbound);
  EXPECT_EQ(mtu_bytes(1), 256);
  EXPECT_EQ(mtu_bytes(0), 0);
  EXPECT_EQ(vl_count(5), 15);
}

TEST(AuditReads, APKeyBlockDropsItsEmptySlots) {
  std::array<uint8_t, topo::kMadDataSize> d{};
  d[0] = 0xFF, d[1] = 0xFF;    // 0xffff
  d[2] = 0x80, d[3] = 0x00;    // 0x8000: empty, full bit only
  d[6] = 0x00, d[7] = 0x01;    // 0x0001, limited
  d[62] = 0x80, d[63] = 0x05;  // entry 31
  EXPECT_EQ(decode_pkey_block(d), (std::vector<uint16_t>{0xffff, 0x0001, 0x8005}));
}
