#pragma once
// The local HCA port as the verbs transport needs it: addressing (LID on InfiniBand, GID on
// RoCE), MTU and rate; and the choice of port for a rank.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "burn/verbs/verbs_settings.h"
#include "rdma/verbs_objects.h"

namespace ibburn::burn::verbs {

struct PortInfo {
  std::string device;
  uint8_t port = 1;
  uint16_t lid = 0;
  bool roce = false;
  int gid_index = 0;
  ibv_gid gid{};
  ibv_gid_type gid_type = IBV_GID_TYPE_IB;
  uint64_t subnet_prefix = 0;  // of GID 0, host order: InfiniBand subnets differ -> GRH
  bool grh_required = false;   // the port asks for a GRH on every packet (IBV_QPF_GRH_REQUIRED)
  ibv_mtu active_mtu = IBV_MTU_1024;
  double rate_gbps = 0;    // data rate (after encoding), 0 when the speed is unknown
  uint64_t port_guid = 0;  // interface id of GID 0: the port GUID on InfiniBand
  int pkey_index = 0;      // the QPs' P_Key index: the entry for --pkey, else --opt pkey_index

  std::string name() const { return device + ":" + std::to_string(port); }
  uint32_t max_msg_sz = 0;  // largest message the port carries (ibv_port_attr), 0 = not said
};

// Data rate of a port from ibv_port_attr's active_width (PortInfo flags: 1 = 1x, 2 = 4x,
// 4 = 8x, 8 = 12x, 16 = 2x) and
// active_speed (1 SDR .. 64 HDR, 128 NDR); 0 when unknown.
double port_rate_gbps(uint8_t active_width, uint8_t active_speed);

// "mlx5_0:1" -> {"mlx5_0", 1}; "mlx5_0" -> port 1. Throws InputError (source "--bind").
std::pair<std::string, uint8_t> parse_bind(const std::string& bind);

// One valid entry of a port's GID table.
struct GidEntry {
  int index = 0;
  ibv_gid gid{};
  ibv_gid_type type = IBV_GID_TYPE_IB;
};
bool gid_is_ipv4_mapped(const ibv_gid& g);  // ::ffff:a.b.c.d, what RoCE v2 over IPv4 uses
bool gid_is_link_local(const ibv_gid& g);   // fe80::/10: not routed
std::string gid_text(const ibv_gid& g);     // the IPv6 text form
const char* gid_type_name(ibv_gid_type t);  // "IB", "RoCE v1", "RoCE v2"
const char* gid_family(const ibv_gid& g);   // "IPv4" (mapped) or "IPv6"

// The GID a port sources from (the rule perftest and NCCL use). `valid`: the port's non-empty
// entries; `table_len`: its GID table length. With `wanted` (--opt gid_index) that entry,
// refused (InputError, "--opt") when it is beyond the table, empty, or not RoCE v2 on
// Ethernet. Without: InfiniBand takes index 0; Ethernet the first RoCE v2 entry with an
// IPv4-mapped address, else the first RoCE v2 with a global IPv6 address, never a zero or
// link-local one (EnvironmentError listing the table when there is none). `where` names the
// port in messages.
GidEntry choose_gid(const std::vector<GidEntry>& valid, int table_len, bool roce, std::optional<int> wanted,
                    const std::string& where);

// Queries port `port` of an open device, with the GID chosen by choose_gid and the P_Key
// index checked (it exists and holds a valid key; InputError otherwise); throws
// EnvironmentError when the port is not ACTIVE.
PortInfo query_port_info(const rdma::Context& context, uint8_t port, const VerbsSettings& settings);

// Active ports of every device, in device order: the candidates for rank binding.
struct ActivePort {
  std::string device;
  uint8_t port = 1;
  bool roce = false;
};
std::vector<ActivePort> active_ports(const rdma::VerbsApi& api);

}  // namespace ibburn::burn::verbs
