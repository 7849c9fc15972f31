#include "topo/dr_walker.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <array>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "common/cpu_pin.h"
#include "common/error.h"
#include "topo/directed_route.h"
#include "topo/mad_window.h"
#include "topo/master_sm.h"
#include "topo/smp_fabric.h"
#include "topo/smp_identity.h"

namespace ibburn::topo {
namespace {

constexpr uint16_t kAttrNodeDesc = 0x0010;
constexpr uint16_t kAttrSwitchInfo = 0x0012;
constexpr uint16_t kAttrMlnxExtPortInfo = 0xFF90;
constexpr uint32_t kCapHasExtSpeeds = 1u << 14;
constexpr uint32_t kMellanoxBull = 0x119f;
constexpr uint32_t kPhysLinkUp = 5;  // PortInfo PortPhysicalState
constexpr uint32_t kSpeedQdr = 4;    // PortInfo LinkSpeedActive: 10 Gb/s per lane

uint32_t field(const SmpData& d, MAD_FIELDS f) { return mad_get_field(const_cast<uint8_t*>(d.data()), 0, f); }

void copy_smp(SmpData& to, const MadResult& from) { std::memcpy(to.data(), from.data.data(), to.size()); }

// Devices whose FDR10 shows only in Mellanox ExtendedPortInfo (the ones libibnetdisc asks).
bool has_mlnx_ext_port_info(uint32_t vendor, uint32_t device) {
  const auto in = [device](uint32_t lo, uint32_t hi) { return device >= lo && device <= hi; };
  if (in(0xc738, 0xc73b) || device == 0xc839 || device == 0xcb20 || device == 0xcf08 || device == 0xcf09 ||
      device == 0xd2f0 || in(0x1003, 0x101b) || device == 0xa2d2)
    return true;
  if (vendor != kMellanoxBull) return false;
  for (uint32_t d : {0x1b02u, 0x1b50u, 0x1ba0u, 0x1bf0u, 0x1b33u, 0x1b73u, 0x1b40u, 0x1b41u, 0x1b60u, 0x1b61u, 0x1b83u,
                     0x1b93u, 0x1b94u, 0x1bb4u, 0x1bb5u})
    if (device == d) return true;
  return in(0x1bd0, 0x1bd5) || in(0x1bc4, 0x1bc6);
}

// A QDR link without extended speeds may be FDR10: only ExtendedPortInfo tells.
bool may_be_fdr10(const SmpData& cap_info, const SmpData& info) {
  const bool has_ext = field(cap_info, IB_PORT_CAPMASK_F) & kCapHasExtSpeeds;
  return field(info, IB_PORT_PHYS_STATE_F) == kPhysLinkUp && field(info, IB_PORT_LINK_SPEED_ACTIVE_F) == kSpeedQdr &&
         (!has_ext || field(info, IB_PORT_LINK_SPEED_EXT_ACTIVE_F) == 0);
}

// True when libibumad sees at least one device (a real HCA or umad2sim's simulated one).
// (umad_get_cas_names is no test: with no device it reports a default name.)
bool any_umad_device() {
  const ScopedCpuPin pin(mad_cpu());  // umad2sim may start here
  umad_device_node* list = umad_get_ca_device_list();
  if (!list) return false;
  umad_free_ca_device_list(list);
  return true;
}

class Walker {
 public:
  explicit Walker(const DiscoverOptions& options) : options_(options), window_(options.mad, kSmpWindow) {}

  SmpFabric walk(DiscoverStats& stats) {
    std::vector<Probe> probes{{-1, 0, DirectedRoute{}}};
    while (!probes.empty()) {
      ++stats.levels;
      std::vector<Answer> answers = probe(probes);
      probes = describe(answers);
    }
    stats.smps = window_.stats().sent;
    stats.timeouts = window_.stats().timeouts;
    return std::move(fabric_);
  }

  // The subnet walked: its prefix and master SM, as the local port sees them.
  Subnet subnet() {
    return probe_subnet(window_, options_.mad.ca.empty() ? std::string("live") : live_source_name(options_.mad));
  }

 private:
  // NodeInfo through `port` of `node` (node -1: the local port itself).
  struct Probe {
    int node;
    int port;
    DirectedRoute route;
  };
  // A node reached through its port `port` over `route`; `fresh` when first seen.
  struct Answer {
    int node;
    int port;
    DirectedRoute route;
    bool fresh;
  };
  // One question of describe(), over the route of the answer it follows.
  static constexpr int kAskDescription = -1;
  static constexpr int kAskSwitchInfo = -2;  // whether the switch's port 0 is base or enhanced
  struct Asked {
    int node;
    int port;  // a PortInfo's port, or kAskDescription / kAskSwitchInfo
    const DirectedRoute* route;
  };

  std::vector<Answer> probe(const std::vector<Probe>& probes) {
    std::vector<MadRequest> reqs;
    reqs.reserve(probes.size());
    for (const Probe& p : probes) reqs.push_back(directed_smp_get(kAttrNodeInfo, 0, p.route));
    std::vector<MadResult> results = window_.run(reqs);
    std::vector<Answer> answers;
    for (size_t i = 0; i < probes.size(); ++i) {
      const Probe& p = probes[i];
      if (!results[i].ok()) {
        if (p.node < 0)
          throw EnvironmentError("fabric discovery from " + where() +
                                 " failed: the local port does not answer (check `ibstat`)");
        continue;  // the port stays unlinked: reported as peer_unreached
      }
      SmpData info;
      copy_smp(info, results[i]);
      const uint64_t guid = mad_get_field64(info.data(), 0, IB_NODE_GUID_F);
      const int num_ports = static_cast<int>(field(info, IB_NODE_NPORTS_F));
      const int local_port = static_cast<int>(field(info, IB_NODE_LOCAL_PORT_F));
      const int type = static_cast<int>(field(info, IB_NODE_TYPE_F));
      const auto twins = by_guid_.find(guid);
      const KnownNode known = p.node < 0 || twins == by_guid_.end()
                                  ? KnownNode{}
                                  : known_node(fabric_, twins->second, type, num_ports, local_port, p.node, p.port);
      const bool fresh = known.id < 0;
      if (fresh) {
        by_guid_[guid].push_back(static_cast<int>(fabric_.nodes.size()));
        SmpNode& n = fabric_.nodes.emplace_back();
        n.type = type;
        n.guid = guid;
        n.num_ports = num_ports;
        n.node_info = info;
        n.ports.resize(num_ports + 1);
      }
      const int id = fresh ? static_cast<int>(fabric_.nodes.size()) - 1 : known.id;
      SmpNode& node = fabric_.nodes[id];
      if (local_port > node.num_ports) continue;  // a malformed answer names no port of the node
      SmpPort& port = node.ports[local_port];
      port.present = true;
      port.guid = mad_get_field64(info.data(), 0, IB_NODE_PORT_GUID_F);
      if (p.node < 0) {
        from_node_ = id;
        from_port_ = local_port;
      } else if (known.link) {
        link_ports(fabric_, p.node, p.port, id, local_port);
      }
      answers.push_back({id, local_port, p.route, fresh});
    }
    return answers;
  }

  // NodeDescription and PortInfo of what the probes reached; returns the next level's probes.
  std::vector<Probe> describe(const std::vector<Answer>& answers) {
    std::vector<Asked> asked;
    for (const Answer& a : answers) {
      const SmpNode& n = fabric_.nodes[a.node];
      if (a.fresh) asked.push_back({a.node, kAskDescription, &a.route});
      if (n.type == IB_NODE_SWITCH) {
        if (a.fresh) {
          asked.push_back({a.node, kAskSwitchInfo, &a.route});
          for (int p = 0; p <= n.num_ports; ++p) asked.push_back({a.node, p, &a.route});
        }
      } else {
        asked.push_back({a.node, a.port, &a.route});  // a CA or router: the port reached
      }
    }
    std::vector<MadRequest> reqs;
    reqs.reserve(asked.size());
    for (const Asked& q : asked)
      reqs.push_back(q.port == kAskDescription ? directed_smp_get(kAttrNodeDesc, 0, *q.route)
                     : q.port == kAskSwitchInfo
                         ? directed_smp_get(kAttrSwitchInfo, 0, *q.route)
                         : directed_smp_get(kAttrPortInfo, static_cast<uint32_t>(q.port), *q.route));
    std::vector<MadResult> results = window_.run(reqs);
    std::vector<Asked> answered;
    for (size_t i = 0; i < asked.size(); ++i) {
      if (!results[i].ok()) continue;
      SmpNode& n = fabric_.nodes[asked[i].node];
      if (asked[i].port == kAskDescription) {
        const char* d = reinterpret_cast<const char*>(results[i].data.data());
        n.description.assign(d, strnlen(d, kSmpDataSize));
        continue;
      }
      if (asked[i].port == kAskSwitchInfo) {
        copy_smp(n.switch_info.emplace(), results[i]);
        continue;
      }
      SmpPort& port = n.ports[asked[i].port];
      if (!port.present) port.guid = mad_get_field64(n.node_info.data(), 0, IB_NODE_PORT_GUID_F);
      port.present = true;
      copy_smp(port.info, results[i]);
      answered.push_back(asked[i]);
    }
    ask_mlnx_ext_port_info(answered);

    std::vector<Probe> next;
    for (const Asked& q : answered) {
      const SmpNode& n = fabric_.nodes[q.node];
      const SmpPort& port = n.ports[q.port];
      const bool is_switch = n.type == IB_NODE_SWITCH;
      // A switch is left through every trained port but the one asked through; a CA only
      // when it is the local one (directed routes do not pass through CAs).
      const bool onward = is_switch ? q.port != static_cast<int>(field(port.info, IB_PORT_LOCAL_PORT_F))
                                    : q.node == from_node_ && q.port == from_port_;
      if (q.port == 0 || !onward || port.peer_node >= 0) continue;  // known from its other end
      if (field(port.info, IB_PORT_PHYS_STATE_F) != kPhysLinkUp) continue;
      const int hops = q.route->hops + 1;
      if (hops > kMaxDirectedHops || (options_.hop_limit > 0 && hops > options_.hop_limit)) continue;
      next.push_back({q.node, q.port, extend(*q.route, q.port)});
    }
    return next;
  }

  // ExtendedPortInfo of the ports whose PortInfo cannot tell QDR from FDR10.
  void ask_mlnx_ext_port_info(const std::vector<Asked>& answered) {
    std::vector<const Asked*> asked;
    for (const Asked& q : answered) {
      const SmpNode& n = fabric_.nodes[q.node];
      const SmpPort& port = n.ports[q.port];
      const SmpData& cap_info = n.type == IB_NODE_SWITCH && n.ports[0].present ? n.ports[0].info : port.info;
      if (q.port != 0 && may_be_fdr10(cap_info, port.info) &&
          has_mlnx_ext_port_info(field(n.node_info, IB_NODE_VENDORID_F), field(n.node_info, IB_NODE_DEVID_F)))
        asked.push_back(&q);
    }
    if (asked.empty()) return;
    std::vector<MadRequest> reqs;
    for (const Asked* q : asked)
      reqs.push_back(directed_smp_get(kAttrMlnxExtPortInfo, static_cast<uint32_t>(q->port), *q->route));
    std::vector<MadResult> results = window_.run(reqs);
    for (size_t i = 0; i < asked.size(); ++i)
      if (results[i].ok()) copy_smp(fabric_.nodes[asked[i]->node].ports[asked[i]->port].ext_info, results[i]);
  }

  DiscoverOptions options_;
  MadWindow window_;
  SmpFabric fabric_;
  std::unordered_map<uint64_t, std::vector<int>> by_guid_;  // several: nodes sharing a GUID
  int from_node_ = -1;
  int from_port_ = 0;

  std::string where() const {
    return options_.mad.ca.empty() ? std::string("the first active port")
                                   : options_.mad.ca + " port " + std::to_string(options_.mad.port);
  }
};

}  // namespace

std::string live_source_name(const MadOptions& mad) {
  std::string name = "live:" + mad.ca;
  if (mad.port > 0) name += ":" + std::to_string(mad.port);
  return name;
}

Fabric discover_live(const DiscoverOptions& options, DiscoverStats* stats) {
  if (!any_umad_device())
    throw EnvironmentError(
        "no InfiniBand device found (no HCA with ib_umad loaded, and no simulated fabric: "
        "see scripts/simfabric)");
  DiscoverStats local;
  Walker walker(options);
  Fabric fabric = build_fabric(walker.walk(stats ? *stats : local));
  fabric.subnets().push_back(walker.subnet());
  for (NodeId n = 0; n < fabric.size(); ++n) fabric.node(n).subnet = 0;
  return fabric;
}

}  // namespace ibburn::topo
