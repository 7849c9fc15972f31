// libibnetdisc cache files into the fabric model, through the same SMP decoding as live
// discovery (topo/smp_fabric.h).
#include "topo/ibnd_fabric.h"

#include <infiniband/ibnetdisc.h>

#include <array>
#include <cstring>
#include <fstream>
#include <memory>
#include <unordered_map>

#include "common/error.h"
#include "topo/smp_fabric.h"

namespace ibburn::topo {
namespace {

// libibnetdisc's cache file magic, written in host (little-endian) order.
constexpr std::array<unsigned char, 4> kCacheMagic{0x2b, 0x83, 0xe7, 0x8f};

using FabricPtr = std::unique_ptr<ibnd_fabric_t, decltype(&ibnd_destroy_fabric)>;

void copy_smp(SmpData& to, const uint8_t* from) { std::memcpy(to.data(), from, to.size()); }

SmpFabric to_smp_fabric(ibnd_fabric_t* in) {
  SmpFabric out;
  std::unordered_map<const ibnd_node_t*, int> index;
  for (ibnd_node_t* n = in->nodes; n; n = n->next) {
    index.emplace(n, static_cast<int>(out.nodes.size()));
    SmpNode& node = out.nodes.emplace_back();
    node.type = n->type;
    node.guid = n->guid;
    node.num_ports = n->numports;
    copy_smp(node.node_info, n->info);
    if (n->type == IB_NODE_SWITCH) copy_smp(node.switch_info.emplace(), n->switchinfo);
    // NodeDescription is at most 64 bytes and not always NUL-terminated on the wire.
    node.description.assign(n->nodedesc, strnlen(n->nodedesc, IB_SMP_DATA_SIZE));
    node.ports.resize(n->numports + 1);
    for (int p = 0; p <= n->numports && n->ports; ++p) {
      const ibnd_port_t* ip = n->ports[p];
      if (!ip) continue;
      SmpPort& port = node.ports[p];
      port.present = true;
      port.guid = ip->guid;
      copy_smp(port.info, ip->info);
      copy_smp(port.ext_info, ip->ext_info);
    }
  }
  for (ibnd_node_t* n = in->nodes; n; n = n->next) {
    for (int p = 1; p <= n->numports && n->ports; ++p) {
      const ibnd_port_t* ip = n->ports[p];
      if (!ip || !ip->remoteport || !ip->remoteport->node) continue;
      SmpPort& port = out.nodes[index.at(n)].ports[p];
      port.peer_node = index.at(ip->remoteport->node);
      port.peer_port = ip->remoteport->portnum;
    }
  }
  return out;
}

}  // namespace

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
  return build_fabric(to_smp_fabric(fabric.get()));
}

}  // namespace ibburn::topo
