#include "audit/audit_capture.h"

#include <map>

namespace ibburn::audit {

AuditReads audit_reads_from_capture(const topo::DbCsv& db, const topo::Fabric& fabric) {
  AuditReads out;
  const std::vector<int> tier = fabric.tiers();
  // P_Key tables by (node GUID, port): the capture's Membership 1 is full.
  std::map<std::pair<uint64_t, int>, std::vector<uint16_t>> pkeys;
  if (const topo::CsvSection* s = db.find("PKEY")) {
    topo::SectionReader r(db, *s);
    const int node = r.need("NodeGUID"), port = r.need("LocalPortNum"), key = r.need("PKey"),
              member = r.need("Membership");
    for (size_t i = 0; i < r.rows(); ++i) {
      const auto k = static_cast<uint16_t>((r.number(i, key) & 0x7FFF) | (r.number(i, member) ? 0x8000 : 0));
      pkeys[{r.number(i, node), static_cast<int>(r.number(i, port))}].push_back(k);
    }
  }
  const topo::CsvSection* ports = db.find("PORTS");
  if (!ports) return out;
  topo::SectionReader r(db, *ports);
  const int node_c = r.need("NodeGuid"), port_c = r.need("PortNum"), mkey_c = r.need("MKey"),
            prot_c = r.need("MKeyProtBits"), nmtu_c = r.need("NMTU"), cap_c = r.need("MTUCap"),
            vlcap_c = r.need("VLCap"), opvl_c = r.need("OpVLs"), inb_c = r.need("PartEnfInb"),
            outb_c = r.need("PartEnfOutb"), guid_c = r.need("PortGuid");
  for (size_t i = 0; i < r.rows(); ++i) {
    const uint64_t guid = r.number(i, node_c);
    const int p = static_cast<int>(r.number(i, port_c));
    const auto id = fabric.find_guid(guid);
    if (!id) continue;
    const topo::Node& node = fabric.node(*id);
    const topo::Port* port = node.port(p);
    // HCA ports and switch ports that are cabled, and a switch's port 0 (its M_Key).
    if (!port || (p != 0 && !port->linked()) || (p == 0 && !node.is_switch())) continue;
    AuditPort a;
    a.node_name = node.name;
    a.node_guid = guid;
    a.port_guid = r.number(i, guid_c);
    a.port = p;
    a.is_switch = node.is_switch();
    if (auto it = pkeys.find({guid, p}); it != pkeys.end()) a.pkeys = it->second;
    a.mkey = r.number(i, mkey_c);
    a.mkey_protect_bits = static_cast<int>(r.number(i, prot_c));
    a.mtu_cap = mtu_bytes(static_cast<int>(r.number(i, cap_c)));
    a.mtu_active = p == 0 ? 0 : mtu_bytes(static_cast<int>(r.number(i, nmtu_c)));
    a.vl_cap = vl_count(static_cast<int>(r.number(i, vlcap_c)));
    a.vls_operational = p == 0 ? 0 : vl_count(static_cast<int>(r.number(i, opvl_c)));
    a.partition_enforcement_inbound = r.number(i, inb_c) != 0;
    a.partition_enforcement_outbound = r.number(i, outb_c) != 0;
    if (port->linked()) {
      a.peer_node_name = fabric.node(port->remote.node).name;
      a.peer_port = port->remote.port;
      a.peer_is_switch = fabric.node(port->remote.node).is_switch();
    }
    a.tier = tier[*id] < 0 ? 0 : tier[*id];
    if (a.is_switch) a.switch_kind = switch_kind(node);
    out.ports.push_back(std::move(a));
  }
  if (const topo::CsvSection* s = db.find("SM_INFO")) {
    topo::SectionReader sm(db, *s);
    const int node = sm.need("NodeGUID"), guid = sm.need("GUID"), key = sm.need("Sm_Key"), state = sm.need("SmState"),
              prio = sm.need("Priority");
    for (size_t i = 0; i < sm.rows(); ++i) {
      const auto id = fabric.find_guid(sm.number(i, node));
      out.sms.push_back({id ? fabric.node(*id).name : sm.text(i, node), sm.number(i, guid),
                         static_cast<int>(sm.number(i, prio)), static_cast<int>(sm.number(i, state)),
                         sm.number(i, key)});
    }
  }
  return out;
}

}  // namespace ibburn::audit
