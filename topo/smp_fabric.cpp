// Decoding SMP answers into the fabric model. PortInfo is decoded with libibmad's field
// accessors where rdma-core 44 has them and by hand (XDR) where it does not.
#include "topo/smp_fabric.h"

#include <infiniband/mad.h>

#include <cstring>

namespace ibburn::topo {
namespace {

// IBA PortInfo CapabilityMask bit 14: the LinkSpeedExt* fields are valid.
constexpr uint32_t kCapHasExtSpeeds = 1u << 14;
// Mellanox ExtendedPortInfo LinkSpeed* bit for FDR10.
constexpr uint32_t kMlnxFdr10 = 0x1;

uint32_t field(const uint8_t* info, MAD_FIELDS f) { return mad_get_field(const_cast<uint8_t*>(info), 0, f); }

// LinkSpeedExtActive2/Supported2/Enabled2 (IBA 1.7, XDR): PortInfo bits 449..455, i.e. the
// top bits of byte 56 after the 1-bit reserved MSB. rdma-core 44 has no accessor for them.
uint8_t ext2_active(const uint8_t* info) { return (info[56] >> 5) & 0x3; }
uint8_t ext2_supported(const uint8_t* info) { return (info[56] >> 3) & 0x3; }
uint8_t ext2_enabled(const uint8_t* info) { return info[56] & 0x7; }

// The widest width set in a LinkWidthSupported/Enabled mask.
Width best_width(uint32_t mask) {
  Width best = Width::Unknown;
  for (uint32_t bit = 1; bit <= 16; bit <<= 1) {
    if (!(mask & bit)) continue;
    Width w = width_from_portinfo(static_cast<uint8_t>(bit));
    if (lanes(w) > lanes(best)) best = w;
  }
  return best;
}

// The fastest speed set in the legacy, extended, XDR and FDR10 masks (Speed is ordered).
Speed best_speed(uint32_t legacy, uint32_t ext, uint32_t ext2, bool fdr10) {
  Speed best = Speed::Unknown;
  auto consider = [&best](Speed s) {
    if (static_cast<int>(s) > static_cast<int>(best)) best = s;
  };
  for (uint32_t bit = 1; bit <= 4; bit <<= 1)
    if (legacy & bit) consider(speed_from_portinfo(static_cast<uint8_t>(bit), 0, 0, false));
  if (fdr10) consider(Speed::FDR10);
  for (uint32_t bit = 1; bit <= 8; bit <<= 1)
    if (ext & bit) consider(speed_from_portinfo(0, static_cast<uint8_t>(bit), 0, false));
  if (ext2 & 0x1) consider(Speed::XDR);
  return best;
}

// Fills state, rates and LID of `out`. `cap_info` is the PortInfo holding the capability
// mask, and `lid_info` the one holding LID and LMC: a switch's external ports report both
// on port 0.
void fill_port(const SmpPort& in, const uint8_t* cap_info, const uint8_t* lid_info, Port& out) {
  const uint8_t* info = in.info.data();
  const uint8_t* ext_info = in.ext_info.data();
  out.guid = in.guid;
  out.lid = static_cast<uint16_t>(field(lid_info, IB_PORT_LID_F));
  out.lmc = static_cast<uint8_t>(field(lid_info, IB_PORT_LMC_F));
  out.state = static_cast<PortState>(field(info, IB_PORT_STATE_F));
  out.phys = static_cast<PhysState>(field(info, IB_PORT_PHYS_STATE_F));
  const bool has_ext = field(cap_info, IB_PORT_CAPMASK_F) & kCapHasExtSpeeds;
  const uint32_t ext_active = has_ext ? field(info, IB_PORT_LINK_SPEED_EXT_ACTIVE_F) : 0;
  const uint32_t ext_supported = has_ext ? field(info, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F) : 0;
  const uint32_t ext_enabled = has_ext ? field(info, IB_PORT_LINK_SPEED_EXT_ENABLED_F) : 0;
  // ext_info stays zero unless Mellanox ExtendedPortInfo was queried.
  const uint32_t mlnx_active = field(ext_info, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);
  const uint32_t mlnx_supported = field(ext_info, IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F);
  const uint32_t mlnx_enabled = field(ext_info, IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F);

  out.active.width = width_from_portinfo(static_cast<uint8_t>(field(info, IB_PORT_LINK_WIDTH_ACTIVE_F)));
  out.active.speed = speed_from_portinfo(static_cast<uint8_t>(field(info, IB_PORT_LINK_SPEED_ACTIVE_F)),
                                         static_cast<uint8_t>(ext_active), ext2_active(info), mlnx_active & kMlnxFdr10);
  out.supported.width = best_width(field(info, IB_PORT_LINK_WIDTH_SUPPORTED_F));
  out.supported.speed = best_speed(field(info, IB_PORT_LINK_SPEED_SUPPORTED_F), ext_supported, ext2_supported(info),
                                   mlnx_supported & kMlnxFdr10);
  // Enabled masks: 255 (width) and 15 (speed) mean "as supported".
  const uint32_t width_enabled = field(info, IB_PORT_LINK_WIDTH_ENABLED_F);
  const uint32_t speed_enabled = field(info, IB_PORT_LINK_SPEED_ENABLED_F);
  out.enabled.width = width_enabled == 0xff ? out.supported.width : best_width(width_enabled);
  out.enabled.speed = speed_enabled == 0xf
                          ? out.supported.speed
                          : best_speed(speed_enabled, ext_enabled, ext2_enabled(info), mlnx_enabled & kMlnxFdr10);
  // Without a trained link the active fields are stale or defaults, not a rate.
  if (out.phys != PhysState::LinkUp) out.active = {};
}

NodeType node_type(int type) {
  switch (type) {
    case IB_NODE_CA: return NodeType::CA;
    case IB_NODE_SWITCH: return NodeType::Switch;
    case IB_NODE_ROUTER: return NodeType::Router;
    default: return NodeType::Unknown;
  }
}

}  // namespace

void link_ports(SmpFabric& fabric, int node_a, int port_a, int node_b, int port_b) {
  SmpPort& a = fabric.nodes[node_a].ports[port_a];
  SmpPort& b = fabric.nodes[node_b].ports[port_b];
  for (SmpPort* end : {&a, &b})
    if (end->peer_node >= 0) fabric.nodes[end->peer_node].ports[end->peer_port].peer_node = -1;
  a.peer_node = node_b;
  a.peer_port = port_b;
  b.peer_node = node_a;
  b.peer_port = port_a;
}

Fabric build_fabric(const SmpFabric& in) {
  Fabric fabric;
  fabric.reserve(in.nodes.size());
  std::vector<NodeId> ids;
  ids.reserve(in.nodes.size());
  for (const SmpNode& n : in.nodes) {
    NodeId id = fabric.add_node(node_type(n.type), n.guid, n.description, n.num_ports);
    Node& node = fabric.node(id);
    uint8_t* ni = const_cast<uint8_t*>(n.node_info.data());
    node.sysimg_guid = mad_get_field64(ni, 0, IB_NODE_SYSTEM_GUID_F);
    node.vendor_id = mad_get_field(ni, 0, IB_NODE_VENDORID_F);
    node.device_id = mad_get_field(ni, 0, IB_NODE_DEVID_F);
    if (n.switch_info)
      node.base_port0 = !mad_get_field(const_cast<uint8_t*>(n.switch_info->data()), 0, IB_SW_ENHANCED_PORT0_F);
    ids.push_back(id);

    const bool is_switch = n.type == IB_NODE_SWITCH;
    const SmpPort* port0 = is_switch && !n.ports.empty() && n.ports[0].present ? &n.ports[0] : nullptr;
    for (int p = 0; p < static_cast<int>(n.ports.size()) && p < static_cast<int>(node.ports.size()); ++p) {
      const SmpPort& sp = n.ports[p];
      if (!sp.present) continue;
      static const SmpData kNone{};  // a switch whose port 0 never answered has no LID
      const uint8_t* cap_info = port0 ? port0->info.data() : sp.info.data();
      const uint8_t* lid_info = !is_switch ? sp.info.data() : port0 ? port0->info.data() : kNone.data();
      fill_port(sp, cap_info, lid_info, node.ports[p]);
    }
  }

  for (size_t i = 0; i < in.nodes.size(); ++i) {
    const SmpNode& n = in.nodes[i];
    for (int p = 1; p < static_cast<int>(n.ports.size()); ++p) {
      const SmpPort& sp = n.ports[p];
      if (!sp.present) continue;
      Port& port = fabric.node(ids[i]).ports[p];
      if (sp.peer_node < 0) {
        // PortInfo says the cable trained, yet nothing answered behind it.
        port.peer_unreached = port.phys == PhysState::LinkUp;
        continue;
      }
      const PortEnd here{ids[i], p};
      const PortEnd there{ids[sp.peer_node], sp.peer_port};
      // Each link appears from both ends; add it once.
      if (there.node < here.node || (there.node == here.node && there.port < here.port)) continue;
      fabric.connect(here, there);
    }
  }
  fabric.reset_names_to_descriptions();
  return fabric;
}

}  // namespace ibburn::topo
