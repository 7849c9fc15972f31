#include "audit/audit_reads.h"

#include <algorithm>

#include <fmt/format.h>

#include "topo/master_sm.h"

namespace ibburn::audit {

namespace {

uint64_t be64(const std::array<uint8_t, topo::kMadDataSize>& d, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = v << 8 | d[at + i];
  return v;
}

}  // namespace

std::string switch_kind(const topo::Node& node) {
  if (node.device_id != 0) return fmt::format("device 0x{:x}", node.device_id);
  const std::string& d = node.description;
  const auto colon = d.rfind(':'), slash = d.rfind('/');
  if (colon != std::string::npos && slash != std::string::npos && slash > colon)
    return d.substr(colon + 1, slash - colon - 1);
  return "switches";
}

int mtu_bytes(int code) { return code >= 1 && code <= 5 ? 128 << code : 0; }

int vl_count(int code) {
  switch (code) {
    case 1: return 1;
    case 2: return 2;
    case 3: return 4;
    case 4: return 8;
    case 5: return 15;
    default: return 0;
  }
}

PortInfoFields decode_port_info(const std::array<uint8_t, topo::kMadDataSize>& d) {
  PortInfoFields f;
  f.mkey = be64(d, 0);
  f.capability_mask = uint32_t{d[20]} << 24 | uint32_t{d[21]} << 16 | uint32_t{d[22]} << 8 | d[23];
  f.mkey_protect_bits = d[34] >> 6;
  f.neighbor_mtu = mtu_bytes(d[36] >> 4);
  f.vl_cap = vl_count(d[37] >> 4);
  f.mtu_cap = mtu_bytes(d[41] & 0xF);
  f.operational_vls = vl_count(d[43] >> 4);
  f.enforce_inbound = d[43] & 0x08;
  f.enforce_outbound = d[43] & 0x04;
  return f;
}

std::vector<uint16_t> decode_pkey_block(const std::array<uint8_t, topo::kMadDataSize>& d) {
  std::vector<uint16_t> out;
  for (size_t i = 0; i < 32; ++i) {
    const uint16_t k = static_cast<uint16_t>(d[2 * i] << 8 | d[2 * i + 1]);
    if ((k & 0x7FFF) != 0) out.push_back(k);
  }
  return out;
}

AuditReads read_audit(const topo::Fabric& fabric, topo::MadWindow& window) {
  AuditReads out;
  const std::vector<int> tier = fabric.tiers();
  struct Target {
    topo::PortEnd port;
    uint16_t lid;
  };
  std::vector<Target> targets;
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    const topo::Node& node = fabric.node(n);
    if (node.is_switch()) {
      const uint16_t lid = node.ports.empty() ? 0 : node.ports[0].lid;
      if (lid == 0) continue;
      targets.push_back({{n, 0}, lid});
      for (int p = 1; p <= node.num_ports; ++p)
        if (node.ports[p].linked()) targets.push_back({{n, p}, lid});
    } else if (node.is_ca()) {
      for (int p = 1; p <= node.num_ports; ++p)
        if (node.ports[p].linked() && node.ports[p].lid) targets.push_back({{n, p}, node.ports[p].lid});
    }
  }
  std::vector<topo::MadRequest> requests;
  for (const auto& t : targets) {
    const bool sw = fabric.node(t.port.node).is_switch();
    topo::MadRequest pi;
    pi.mgmt_class = topo::kClassSmiLid;
    pi.attr_id = topo::kAttrPortInfo;
    pi.attr_mod = static_cast<uint32_t>(t.port.port);
    pi.dlid = t.lid;
    requests.push_back(pi);
    topo::MadRequest pk = pi;
    pk.attr_id = kAttrPKeyTable;
    pk.attr_mod = sw ? static_cast<uint32_t>(t.port.port) << 16 : 0;  // block 0
    requests.push_back(pk);
  }
  const std::vector<topo::MadResult> results = window.run(requests);
  std::vector<std::pair<uint16_t, topo::PortEnd>> sm_ports;
  for (size_t i = 0; i < targets.size(); ++i) {
    const topo::PortEnd at = targets[i].port;
    const topo::Node& node = fabric.node(at.node);
    const topo::MadResult& pi = results[2 * i];
    const topo::MadResult& pk = results[2 * i + 1];
    auto miss = [&](const char* what, const topo::MadResult& r) {
      out.unanswered.push_back(fmt::format("{}: {}: {}", fabric.port_name(at), what,
                                           r.answered ? "MAD status " + std::to_string(r.status) : r.error));
    };
    if (!pi.ok()) {
      miss("PortInfo", pi);
      continue;
    }
    const PortInfoFields f = decode_port_info(pi.data);
    AuditPort a;
    a.node_name = node.name;
    a.node_guid = node.guid;
    a.port_guid = node.ports[at.port].guid ? node.ports[at.port].guid : node.guid;
    a.port = at.port;
    a.is_switch = node.is_switch();
    if (pk.ok())
      a.pkeys = decode_pkey_block(pk.data);
    else if (at.port != 0)
      miss("P_Key table", pk);
    a.mkey = f.mkey;
    a.mkey_protect_bits = f.mkey_protect_bits;
    a.mtu_cap = f.mtu_cap;
    a.mtu_active = at.port == 0 ? 0 : f.neighbor_mtu;
    a.vl_cap = f.vl_cap;
    a.vls_operational = at.port == 0 ? 0 : f.operational_vls;
    a.partition_enforcement_inbound = f.enforce_inbound;
    a.partition_enforcement_outbound = f.enforce_outbound;
    if (const topo::PortEnd peer = node.ports[at.port].remote; peer.valid()) {
      a.peer_node_name = fabric.node(peer.node).name;
      a.peer_port = peer.port;
      a.peer_is_switch = fabric.node(peer.node).is_switch();
    }
    a.tier = tier[at.node] < 0 ? 0 : tier[at.node];
    if (a.is_switch) a.switch_kind = switch_kind(node);
    if (node.is_ca() && f.is_sm()) sm_ports.emplace_back(targets[i].lid, at);
    out.ports.push_back(std::move(a));
  }
  std::vector<topo::MadRequest> sm_requests;
  for (const auto& [lid, port] : sm_ports) {
    topo::MadRequest si;
    si.mgmt_class = topo::kClassSmiLid;
    si.attr_id = topo::kAttrSmInfo;
    si.dlid = lid;
    sm_requests.push_back(si);
  }
  const std::vector<topo::MadResult> sm_results = window.run(sm_requests);
  for (size_t i = 0; i < sm_ports.size(); ++i) {
    const auto& [lid, port] = sm_ports[i];
    if (!sm_results[i].ok()) {
      out.unanswered.push_back(fmt::format(
          "{}: SMInfo: {}", fabric.port_name(port),
          sm_results[i].answered ? "MAD status " + std::to_string(sm_results[i].status) : sm_results[i].error));
      continue;
    }
    const topo::MasterSm sm = topo::decode_sm_info(sm_results[i].data, lid);
    out.sms.push_back({fabric.node(port.node).name, sm.guid, sm.priority, sm.state, be64(sm_results[i].data, 8)});
  }
  return out;
}

}  // namespace ibburn::audit
