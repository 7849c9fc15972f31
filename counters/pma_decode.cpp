#include "counters/pma_decode.h"

#include <infiniband/mad.h>

#include <array>
#include <utility>

namespace ibburn::counters {
namespace {

// libibmad's field descriptors carry the IBA bit offsets; the casts are because libibmad
// takes a non-const buffer even for reads.
uint64_t field(const uint8_t* data, enum MAD_FIELDS f) {
  uint64_t v = 0;
  mad_decode_field(const_cast<uint8_t*>(data), f, &v);
  return v;
}

constexpr std::array<std::pair<Counter, MAD_FIELDS>, 17> kPortCounters = {{
    {Counter::SymbolErrorCounter, IB_PC_ERR_SYM_F},
    {Counter::LinkErrorRecoveryCounter, IB_PC_LINK_RECOVERS_F},
    {Counter::LinkDownedCounter, IB_PC_LINK_DOWNED_F},
    {Counter::PortRcvErrors, IB_PC_ERR_RCV_F},
    {Counter::PortRcvRemotePhysicalErrors, IB_PC_ERR_PHYSRCV_F},
    {Counter::PortRcvSwitchRelayErrors, IB_PC_ERR_SWITCH_REL_F},
    {Counter::PortXmitDiscards, IB_PC_XMT_DISCARDS_F},
    {Counter::PortXmitConstraintErrors, IB_PC_ERR_XMTCONSTR_F},
    {Counter::PortRcvConstraintErrors, IB_PC_ERR_RCVCONSTR_F},
    {Counter::LocalLinkIntegrityErrors, IB_PC_ERR_LOCALINTEG_F},
    {Counter::ExcessiveBufferOverrunErrors, IB_PC_ERR_EXCESS_OVR_F},
    {Counter::VL15Dropped, IB_PC_VL15_DROPPED_F},
    {Counter::PortXmitWait, IB_PC_XMT_WAIT_F},
    {Counter::PortXmitData, IB_PC_XMT_BYTES_F},
    {Counter::PortRcvData, IB_PC_RCV_BYTES_F},
    {Counter::PortXmitPkts, IB_PC_XMT_PKTS_F},
    {Counter::PortRcvPkts, IB_PC_RCV_PKTS_F},
}};

constexpr std::array<std::pair<Counter, MAD_FIELDS>, 8> kPortCountersExt = {{
    {Counter::PortXmitData, IB_PC_EXT_XMT_BYTES_F},
    {Counter::PortRcvData, IB_PC_EXT_RCV_BYTES_F},
    {Counter::PortXmitPkts, IB_PC_EXT_XMT_PKTS_F},
    {Counter::PortRcvPkts, IB_PC_EXT_RCV_PKTS_F},
    {Counter::PortUnicastXmitPkts, IB_PC_EXT_XMT_UPKTS_F},
    {Counter::PortUnicastRcvPkts, IB_PC_EXT_RCV_UPKTS_F},
    {Counter::PortMulticastXmitPkts, IB_PC_EXT_XMT_MPKTS_F},
    {Counter::PortMulticastRcvPkts, IB_PC_EXT_RCV_MPKTS_F},
}};

void set_field(uint8_t* data, enum MAD_FIELDS f, uint32_t v) { mad_set_field(data, 0, f, v); }

}  // namespace

void decode_port_counters(const uint8_t* data, CounterValues& out) {
  for (const auto& [c, f] : kPortCounters) out.set(c, field(data, f), port_counters_bits(c));
  // QP1Dropped is bytes 20-21 (IBA 1.3 PortCounters); libibmad's descriptor for it points
  // at VL15Dropped's bytes 22-23, so it is read here directly.
  out.set(Counter::QP1Dropped, static_cast<uint64_t>(data[20]) << 8 | data[21], 16);
}

void decode_port_counters_ext(const uint8_t* data, CounterValues& out) {
  for (const auto& [c, f] : kPortCountersExt) out.set(c, field(data, f), 64);
}

void encode_port_counters_get(uint8_t* data, int port) {
  set_field(data, IB_PC_PORT_SELECT_F, static_cast<uint32_t>(port));
}

void encode_port_counters_clear(uint8_t* data, int port) {
  encode_port_counters_get(data, port);
  // CounterSelect: every PortCounters counter; CounterSelect2: PortXmitWait and the rest.
  set_field(data, IB_PC_COUNTER_SELECT_F, 0xFFFF);
  set_field(data, IB_PC_COUNTER_SELECT2_F, 0xFF);
}

void encode_port_counters_ext_clear(uint8_t* data, int port) {
  set_field(data, IB_PC_EXT_PORT_SELECT_F, static_cast<uint32_t>(port));
  set_field(data, IB_PC_EXT_COUNTER_SELECT_F, 0xFF);  // the eight data/packet counters
}

PortStateInfo decode_port_info_state(const uint8_t* data) {
  PortStateInfo s;
  uint64_t state = field(data, IB_PORT_STATE_F), phys = field(data, IB_PORT_PHYS_STATE_F);
  if (state <= 4) s.state = static_cast<topo::PortState>(state);
  if (phys <= 7) s.phys = static_cast<topo::PhysState>(phys);
  return s;
}

}  // namespace ibburn::counters
