#pragma once
// What the audit reads from a live fabric, over Get SMPs only (it never sets anything and takes
// no SM role; docs/audit.md): every HCA port's and switch port's PortInfo (a switch's port 0
// too: it holds the switch's M_Key) and the first block of its P_Key table (32 entries), then
// SMInfo from every port whose PortInfo says IsSM. The decoders are pure.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_checks.h"
#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::audit {

inline constexpr uint16_t kAttrPKeyTable = 0x0016;

// PortInfo's fields the audit reads (IBA 1.7 vol 1, 14.2.5.6), MTUs in bytes, VLs counted.
struct PortInfoFields {
  uint64_t mkey = 0;
  uint32_t capability_mask = 0;
  bool is_sm() const { return capability_mask & 0x2; }
  int mkey_protect_bits = 0;
  int neighbor_mtu = 0, mtu_cap = 0;
  int vl_cap = 0, operational_vls = 0;
  bool enforce_inbound = false, enforce_outbound = false;
};
PortInfoFields decode_port_info(const std::array<uint8_t, topo::kMadDataSize>& data);
// MTU codes 1..5 as 256..4096 bytes (0 for others); VL codes 1..5 as 1, 2, 4, 8, 15 VLs.
int mtu_bytes(int code);
int vl_count(int code);
// One P_Key block: its 32 entries, the empty ones (0, and 0x8000) dropped.
std::vector<uint16_t> decode_pkey_block(const std::array<uint8_t, topo::kMadDataSize>& data);

struct AuditReads {
  std::vector<AuditPort> ports;
  std::vector<AuditSm> sms;
  std::vector<std::string> unanswered;  // "leaf01[3]: PortInfo: timeout", for the notes
};

AuditReads read_audit(const topo::Fabric& fabric, topo::MadWindow& window);

// A switch's kind for grouping: its device id (one model answers with several descriptions: "MF0;sw:MQM9700/U1" and
// "Quantum-2 Mellanox Technologies" are both 0xd2f2), else its model from a Mellanox-style description.
std::string switch_kind(const topo::Node& node);

}  // namespace ibburn::audit
