// Raw PerfMgt/SMP payload bytes laid out by hand from the IBA tables, decoded.
#include "counters/pma_decode.h"

#include <gtest/gtest.h>

#include <array>

using namespace ibburn;
using namespace ibburn::counters;

TEST(PmaDecode, PortCountersAtTheirIbaOffsets) {
  std::array<uint8_t, kMadDataSize> d{};
  d[1] = 7;  // PortSelect
  d[4] = 0xFF;
  d[5] = 0xFF;  // SymbolErrorCounter (16 bits)
  d[6] = 3;     // LinkErrorRecoveryCounter (8)
  d[7] = 9;     // LinkDownedCounter (8)
  d[8] = 0x01;
  d[9] = 0x02;  // PortRcvErrors
  d[14] = 0x00;
  d[15] = 0x2A;  // PortXmitDiscards
  d[17] = 5;     // PortRcvConstraintErrors
  d[19] = 0xA3;  // LocalLinkIntegrityErrors=0xA, ExcessiveBufferOverrun=3
  d[20] = 0;
  d[21] = 4;  // QP1Dropped
  d[22] = 0;
  d[23] = 6;  // VL15Dropped
  d[24] = 0x01;
  d[25] = 0x02;
  d[26] = 0x03;
  d[27] = 0x04;  // PortXmitData
  d[36] = 0xFF;
  d[37] = 0xFF;
  d[38] = 0xFF;
  d[39] = 0xFF;  // PortRcvPkts
  d[40] = 0;
  d[41] = 0;
  d[42] = 0x10;
  d[43] = 0;  // PortXmitWait
  CounterValues c;
  decode_port_counters(d.data(), c);
  EXPECT_EQ(c.get(Counter::SymbolErrorCounter), 0xFFFFu);
  EXPECT_TRUE(c.saturated(Counter::SymbolErrorCounter));
  EXPECT_EQ(c.get(Counter::LinkErrorRecoveryCounter), 3u);
  EXPECT_EQ(c.get(Counter::LinkDownedCounter), 9u);
  EXPECT_EQ(c.get(Counter::PortRcvErrors), 0x0102u);
  EXPECT_EQ(c.get(Counter::PortXmitDiscards), 42u);
  EXPECT_EQ(c.get(Counter::PortRcvConstraintErrors), 5u);
  EXPECT_EQ(c.get(Counter::LocalLinkIntegrityErrors), 0xAu);
  EXPECT_EQ(c.get(Counter::ExcessiveBufferOverrunErrors), 3u);
  EXPECT_EQ(c.get(Counter::QP1Dropped), 4u);
  EXPECT_EQ(c.get(Counter::VL15Dropped), 6u);
  EXPECT_EQ(c.get(Counter::PortXmitData), 0x01020304u);
  EXPECT_TRUE(c.saturated(Counter::PortRcvPkts));
  EXPECT_EQ(c.get(Counter::PortXmitWait), 0x1000u);
  EXPECT_FALSE(c.has(Counter::PortUnicastXmitPkts));
}

TEST(PmaDecode, ExtendedCountersReplaceTheDataCountersWith64Bits) {
  std::array<uint8_t, kMadDataSize> pc{}, ext{};
  pc[24] = 0xFF;
  pc[25] = 0xFF;
  pc[26] = 0xFF;
  pc[27] = 0xFF;  // 32-bit PortXmitData pinned
  ext[8] = 0x00;
  ext[9] = 0x00;
  ext[10] = 0x21;
  ext[11] = 0x03;  // PortXmitData (64 bits)
  ext[12] = 0x00;
  ext[13] = 0x00;
  ext[14] = 0x00;
  ext[15] = 0x80;
  ext[71] = 0x05;  // PortMulticastRcvPkts: bytes 64..71
  CounterValues c;
  decode_port_counters(pc.data(), c);
  decode_port_counters_ext(ext.data(), c);
  EXPECT_EQ(c.get(Counter::PortXmitData), 0x0000210300000080ull);
  EXPECT_FALSE(c.saturated(Counter::PortXmitData));
  EXPECT_EQ(c.get(Counter::PortMulticastRcvPkts), 5u);
  EXPECT_TRUE(c.has(Counter::PortUnicastXmitPkts));
}

TEST(PmaDecode, PortSelectAndClearMasks) {
  std::array<uint8_t, kMadDataSize> d{};
  encode_port_counters_clear(d.data(), 17);
  EXPECT_EQ(d[1], 17);
  EXPECT_EQ(d[2], 0xFF);
  EXPECT_EQ(d[3], 0xFF);
  EXPECT_EQ(d[18], 0xFF);  // CounterSelect2
  std::array<uint8_t, kMadDataSize> e{};
  encode_port_counters_ext_clear(e.data(), 2);
  EXPECT_EQ(e[1], 2);
  EXPECT_EQ(e[3], 0xFF);  // CounterSelect low byte: the eight data counters
}

TEST(PmaDecode, PortInfoState) {
  std::array<uint8_t, kMadDataSize> d{};
  // PortInfo byte 32: LinkSpeedSupported(4) | PortState(4); byte 33: PortPhysicalState(4) | ...
  d[32] = 0x02;  // Init
  d[33] = 0x50;  // LinkUp
  PortStateInfo s = decode_port_info_state(d.data());
  EXPECT_EQ(s.state, topo::PortState::Init);
  EXPECT_EQ(s.phys, topo::PhysState::LinkUp);
}
