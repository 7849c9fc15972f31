#pragma once
// A fabric as its SMP answers: per node the raw NodeInfo, NodeDescription and the PortInfo
// (and Mellanox ExtendedPortInfo) of every port that was asked, plus the links. Both live
// discovery (topo/dr_walker.h) and libibnetdisc cache files (topo/ibnd_fabric.h) fill one,
// and build_fabric decodes it into the fabric model the same way for both.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topo/fabric.h"

namespace ibburn::topo {

inline constexpr size_t kSmpDataSize = 64;
using SmpData = std::array<uint8_t, kSmpDataSize>;

struct SmpPort {
  bool present = false;  // asked for, or reached through; absent ports stay out of the model
  uint64_t guid = 0;
  SmpData info{};      // PortInfo (zeros when it was never answered)
  SmpData ext_info{};  // Mellanox ExtendedPortInfo (zeros unless asked)
  int peer_node = -1;  // index into SmpFabric::nodes, -1: no link
  int peer_port = 0;
};

struct SmpNode {
  int type = 0;  // IB node type: 1 CA, 2 switch, 3 router
  uint64_t guid = 0;
  int num_ports = 0;
  SmpData node_info{};
  std::optional<SmpData> switch_info;  // a switch's SwitchInfo, when it answered
  std::string description;             // NodeDescription, at most 64 bytes
  std::vector<SmpPort> ports;          // 0..num_ports
};

struct SmpFabric {
  std::vector<SmpNode> nodes;
};

// Links both ends (dropping a link either end had before, as a re-read cable would).
void link_ports(SmpFabric& fabric, int node_a, int port_a, int node_b, int port_b);

// The fabric model: rates and states decoded from PortInfo, switch ports carrying the
// switch's LID, and ports whose PortInfo says LinkUp but that have no peer marked
// peer_unreached.
Fabric build_fabric(const SmpFabric& in);

}  // namespace ibburn::topo
