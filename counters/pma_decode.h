#pragma once
// Decoding the data area (MAD bytes 64..255) of PerfMgt PortCounters /
// PortCountersExtended and SMP PortInfo into the counter model. Pure: tested on raw bytes.
#include <cstddef>
#include <cstdint>

#include "counters/port_counters.h"
#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::counters {

using topo::kMadDataOffset;
using topo::kMadDataSize;

// PortCounters: every error counter, QP1Dropped, PortXmitWait and the 32-bit data counters.
void decode_port_counters(const uint8_t* data, CounterValues& out);
// PortCountersExtended: the eight 64-bit data/packet counters (replacing the 32-bit ones).
void decode_port_counters_ext(const uint8_t* data, CounterValues& out);
// Request payloads: PortSelect (and for a Set, the counters to clear).
void encode_port_counters_get(uint8_t* data, int port);
void encode_port_counters_clear(uint8_t* data, int port);
void encode_port_counters_ext_clear(uint8_t* data, int port);

struct PortStateInfo {
  topo::PortState state = topo::PortState::Unknown;
  topo::PhysState phys = topo::PhysState::Unknown;
};
PortStateInfo decode_port_info_state(const uint8_t* data);

}  // namespace ibburn::counters
