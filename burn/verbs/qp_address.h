#pragma once
// What one end of a verbs flow tells the other (the address blob the engine ships between
// ranks), and the QP attributes built from both ends: path MTU = the smaller active MTU,
// LID addressing on InfiniBand, GID (GRH) addressing on RoCE.
#include <cstdint>
#include <vector>

#include "burn/transport.h"
#include "burn/verbs/port_info.h"

namespace ibburn::burn::verbs {

struct QpEndpoint {
  uint32_t qpn = 0;
  uint32_t psn = 0;
};

struct FlowAddress {
  uint32_t stage = 0;
  uint32_t flow_id = 0;
  uint16_t lid = 0;
  bool roce = false;
  ibv_gid gid{};
  ibv_mtu mtu = IBV_MTU_1024;
  uint64_t addr = 0;  // base of the receive buffer: slot q of QP q at addr + q*slot
  uint32_t rkey = 0;
  uint64_t slot_bytes = 0;
  std::vector<QpEndpoint> qps;
};

AddressBlob encode(const FlowAddress& a);
// Throws TransportError when the blob is not a verbs flow address.
FlowAddress decode_flow_address(const AddressBlob& blob);

ibv_mtu path_mtu(ibv_mtu a, ibv_mtu b);
int mtu_bytes(ibv_mtu m);

struct QpTransition {
  ibv_qp_attr attr{};
  int mask = 0;
};
QpTransition init_transition(uint8_t port, int access);
QpTransition rtr_transition(const PortInfo& local, const FlowAddress& remote, const QpEndpoint& remote_qp);
QpTransition rts_transition(uint32_t psn);

}  // namespace ibburn::burn::verbs
