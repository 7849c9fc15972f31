// libibnetdisc adapter: live discovery and cache files into the fabric model. PortInfo is
// decoded from the raw bytes libibnetdisc keeps, with libibmad's field accessors where
// rdma-core 44 has them and by hand (XDR) where it does not.
#include "topo/ibnd_fabric.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <array>
#include <cstring>
#include <fstream>
#include <memory>
#include <unordered_map>

#include "common/error.h"

namespace ibburn::topo {
namespace {

// IBA PortInfo CapabilityMask bit 14: the LinkSpeedExt* fields are valid.
constexpr uint32_t kCapHasExtSpeeds = 1u << 14;
// Mellanox ExtendedPortInfo LinkSpeed* bit for FDR10.
constexpr uint32_t kMlnxFdr10 = 0x1;
// libibnetdisc's cache file magic, written in host (little-endian) order.
constexpr std::array<unsigned char, 4> kCacheMagic{0x2b, 0x83, 0xe7, 0x8f};

using FabricPtr = std::unique_ptr<ibnd_fabric_t, decltype(&ibnd_destroy_fabric)>;

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

// Fills state, rates and LID of `out` from libibnetdisc's port. `cap_info` is the PortInfo
// holding the capability mask: a switch's external ports report it on port 0.
void fill_port(const ibnd_port_t& in, const uint8_t* cap_info, uint16_t switch_lid, Port& out) {
  const uint8_t* info = in.info;
  const uint8_t* ext_info = in.ext_info;
  out.guid = in.guid;
  out.lid = switch_lid ? switch_lid : in.base_lid;
  out.lmc = in.lmc;
  out.state = static_cast<PortState>(field(info, IB_PORT_STATE_F));
  out.phys = static_cast<PhysState>(field(info, IB_PORT_PHYS_STATE_F));
  const bool has_ext = field(cap_info, IB_PORT_CAPMASK_F) & kCapHasExtSpeeds;
  const uint32_t ext_active = has_ext ? field(info, IB_PORT_LINK_SPEED_EXT_ACTIVE_F) : 0;
  const uint32_t ext_supported = has_ext ? field(info, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F) : 0;
  const uint32_t ext_enabled = has_ext ? field(info, IB_PORT_LINK_SPEED_EXT_ENABLED_F) : 0;
  // ext_info stays zero unless libibnetdisc queried Mellanox ExtendedPortInfo.
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

NodeType node_type(int ibnd_type) {
  switch (ibnd_type) {
    case IB_NODE_CA: return NodeType::CA;
    case IB_NODE_SWITCH: return NodeType::Switch;
    case IB_NODE_ROUTER: return NodeType::Router;
    default: return NodeType::Unknown;
  }
}

Fabric to_fabric(ibnd_fabric_t* in) {
  Fabric fabric;
  size_t count = 0;
  for (ibnd_node_t* n = in->nodes; n; n = n->next) ++count;
  fabric.reserve(count);

  std::unordered_map<const ibnd_node_t*, NodeId> ids;
  ids.reserve(count);
  for (ibnd_node_t* n = in->nodes; n; n = n->next) {
    // NodeDescription is at most 64 bytes and not always NUL-terminated on the wire.
    std::string desc(n->nodedesc, strnlen(n->nodedesc, IB_SMP_DATA_SIZE));
    NodeId id = fabric.add_node(node_type(n->type), n->guid, desc, n->numports);
    Node& node = fabric.node(id);
    node.sysimg_guid = mad_get_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F);
    node.vendor_id = mad_get_field(n->info, 0, IB_NODE_VENDORID_F);
    node.device_id = mad_get_field(n->info, 0, IB_NODE_DEVID_F);
    ids.emplace(n, id);

    const bool is_switch = n->type == IB_NODE_SWITCH;
    const ibnd_port_t* port0 = is_switch && n->ports ? n->ports[0] : nullptr;
    for (int p = 0; p <= n->numports && n->ports; ++p) {
      const ibnd_port_t* ip = n->ports[p];
      if (!ip || p >= static_cast<int>(node.ports.size())) continue;
      const uint8_t* cap_info = port0 ? port0->info : ip->info;
      fill_port(*ip, cap_info, is_switch ? n->smalid : 0, node.ports[p]);
    }
  }

  for (ibnd_node_t* n = in->nodes; n; n = n->next) {
    if (!n->ports) continue;
    const NodeId id = ids.at(n);
    for (int p = 1; p <= n->numports; ++p) {
      const ibnd_port_t* ip = n->ports[p];
      if (!ip) continue;
      Port& port = fabric.node(id).ports[p];
      const ibnd_port_t* rp = ip->remoteport;
      if (!rp || !rp->node) {
        // PortInfo says the cable trained, yet nothing answered behind it.
        port.peer_unreached = port.phys == PhysState::LinkUp;
        continue;
      }
      const PortEnd here{id, p};
      const PortEnd there{ids.at(rp->node), rp->portnum};
      // Each link appears from both ends; add it once.
      if (there.node < here.node || (there.node == here.node && there.port < here.port)) continue;
      fabric.connect(here, there);
    }
  }
  fabric.reset_names_to_descriptions();
  return fabric;
}

// True when libibumad sees at least one device (a real HCA or umad2sim's simulated one).
// (umad_get_cas_names is no test: with no device it reports a default name.)
bool any_umad_device() {
  umad_device_node* list = umad_get_ca_device_list();
  if (!list) return false;
  umad_free_ca_device_list(list);
  return true;
}

}  // namespace

Fabric discover_live(const DiscoverOptions& options) {
  if (!any_umad_device())
    throw EnvironmentError(
        "no InfiniBand device found (no HCA with ib_umad loaded, and no simulated fabric: "
        "see scripts/simfabric)");
  ibnd_config_t config;
  std::memset(&config, 0, sizeof config);
  config.max_hops = options.hop_limit > 0 ? static_cast<unsigned>(options.hop_limit) : 0;
  config.timeout_ms = static_cast<unsigned>(options.timeout.count());
  config.retries = static_cast<unsigned>(options.retries);
  config.flags = IBND_CONFIG_MLX_EPI;  // FDR10 lives in Mellanox ExtendedPortInfo
  std::string ca = options.ca;
  FabricPtr fabric(ibnd_discover_fabric(ca.empty() ? nullptr : ca.data(), options.port, nullptr, &config),
                   ibnd_destroy_fabric);
  if (!fabric) {
    std::string where =
        ca.empty() ? std::string("the first active port") : ca + " port " + std::to_string(options.port);
    throw EnvironmentError("fabric discovery from " + where +
                           " failed: the port cannot be opened or its link is down (check `ibstat`)");
  }
  return to_fabric(fabric.get());
}

bool is_ibnd_cache(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 4> head{};
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  return in.gcount() == static_cast<std::streamsize>(head.size()) && head == kCacheMagic;
}

Fabric load_ibnd_cache(const std::string& path) {
  if (!std::ifstream(path)) throw InputError(path, 0, "cannot open file");
  if (!is_ibnd_cache(path)) throw InputError(path, 0, "not a libibnetdisc cache file (bad magic)");
  FabricPtr fabric(ibnd_load_fabric(path.c_str(), 0), ibnd_destroy_fabric);
  if (!fabric) throw InputError(path, 0, "libibnetdisc could not load this cache file (truncated or other version)");
  return to_fabric(fabric.get());
}

}  // namespace ibburn::topo
