#pragma once
// What one end of a verbs flow tells the other (the address blob the engine ships between
// ranks), and the QP attributes built from both ends: path MTU = the smaller active MTU,
// LID addressing on InfiniBand (with a GRH across subnets or when the port requires one),
// GID (GRH) addressing on RoCE; service level, traffic class, P_Key index and ACK timeout
// from the run's path knobs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "burn/transport.h"
#include "burn/verbs/port_info.h"
#include "burn/verbs/verbs_settings.h"

namespace ibburn::burn::verbs {

struct QpEndpoint {
  uint32_t qpn = 0;
  uint32_t psn = 0;
};

struct FlowAddress {
  uint32_t stage = 0;
  uint32_t flow_id = 0;
  std::string endpoint;  // "mlx5_0:1", for messages
  uint16_t lid = 0;
  bool roce = false;
  int gid_index = 0;
  ibv_gid gid{};
  ibv_gid_type gid_type = IBV_GID_TYPE_IB;
  uint64_t subnet_prefix = 0;
  ibv_mtu mtu = IBV_MTU_1024;
  uint64_t addr = 0;  // base of the receive buffer: slot q of QP q at addr + q*slot
  uint32_t rkey = 0;
  uint64_t slot_bytes = 0;
  std::vector<QpEndpoint> qps;
};

// The port's part of a flow address (endpoint, LID, link layer, GID and its kind, subnet, MTU).
FlowAddress address_of(const PortInfo& port);

AddressBlob encode(const FlowAddress& a);
// Throws TransportError when the blob is not a verbs flow address.
FlowAddress decode_flow_address(const AddressBlob& blob);

// Why two ends cannot talk, naming both: link layers differ, or on RoCE the GIDs differ in
// type (v1/v2) or family (IPv4/IPv6). nullopt when they match.
std::optional<std::string> address_mismatch(const PortInfo& local, const FlowAddress& remote);

ibv_mtu path_mtu(ibv_mtu a, ibv_mtu b);

struct QpTransition {
  ibv_qp_attr attr{};
  int mask = 0;
};
QpTransition init_transition(uint8_t port, int access, uint16_t pkey_index);
QpTransition rtr_transition(const PortInfo& local, const FlowAddress& remote, const QpEndpoint& remote_qp,
                            const PathKnobs& path);
QpTransition rts_transition(uint32_t psn, const PathKnobs& path);

}  // namespace ibburn::burn::verbs
