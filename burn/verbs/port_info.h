#pragma once
// The local HCA port as the verbs transport needs it: addressing (LID on InfiniBand, GID on
// RoCE), MTU and rate; and the choice of port for a rank.
#include <cstdint>
#include <string>
#include <vector>

#include "rdma/verbs_objects.h"

namespace ibburn::burn::verbs {

struct PortInfo {
  std::string device;
  uint8_t port = 1;
  uint16_t lid = 0;
  bool roce = false;
  int gid_index = 0;
  ibv_gid gid{};
  ibv_mtu active_mtu = IBV_MTU_1024;
  double rate_gbps = 0;    // data rate (after encoding), 0 when the speed is unknown
  uint64_t port_guid = 0;  // interface id of GID 0: the port GUID on InfiniBand
  uint32_t max_msg_sz = 0;  // largest message the port carries (ibv_port_attr), 0 = not said
};

// Data rate of a port from ibv_port_attr's active_width (PortInfo flags: 1 = 1x, 2 = 4x,
// 4 = 8x, 8 = 12x, 16 = 2x) and
// active_speed (1 SDR .. 64 HDR, 128 NDR); 0 when unknown.
double port_rate_gbps(uint8_t active_width, uint8_t active_speed);

// "mlx5_0:1" -> {"mlx5_0", 1}; "mlx5_0" -> port 1. Throws InputError (source "--bind").
std::pair<std::string, uint8_t> parse_bind(const std::string& bind);

// Queries port `port` of an open device; throws EnvironmentError when it is not ACTIVE.
PortInfo query_port_info(const rdma::Context& context, uint8_t port, int gid_index);

// Active ports of every device, in device order: the candidates for rank binding.
struct ActivePort {
  std::string device;
  uint8_t port = 1;
};
std::vector<ActivePort> active_ports(const rdma::VerbsApi& api);

}  // namespace ibburn::burn::verbs
