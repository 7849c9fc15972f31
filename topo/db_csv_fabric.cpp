#include "topo/db_csv_fabric.h"

#include "common/error.h"

namespace ibburn::topo {

Speed speed_from_ibdm(uint64_t mask) {
  if (mask & (1ull << 24)) return Speed::XDR;
  const uint8_t ext = static_cast<uint8_t>(mask >> 8);
  // PortInfo's fields are one speed each; a mask of several reads as its highest.
  for (uint8_t bit = 0x80; bit; bit >>= 1)
    if (ext & bit) return speed_from_portinfo(0, bit, 0, false);
  if (mask & (1ull << 16)) return Speed::FDR10;
  const uint8_t legacy = static_cast<uint8_t>(mask);
  for (uint8_t bit = 0x80; bit; bit >>= 1)
    if (legacy & bit) return speed_from_portinfo(bit, 0, 0, false);
  return Speed::Unknown;
}

namespace {

Width width_from_mask(uint64_t mask) {
  // Supported and enabled masks hold several widths: the widest.
  for (uint8_t bit : {uint8_t{8}, uint8_t{4}, uint8_t{2}, uint8_t{16}, uint8_t{1}})
    if (mask & bit) return width_from_portinfo(bit);
  return Width::Unknown;
}

LinkRate rate(const SectionReader& r, size_t row, int width, int speed) {
  return {width_from_mask(r.number(row, width)), speed_from_ibdm(r.number(row, speed))};
}

const CsvSection& need_section(const DbCsv& db, const std::string& name) {
  const CsvSection* s = db.find(name);
  if (!s) throw InputError(db.origin, 0, "no " + name + " section");
  return *s;
}

NodeType node_type(const SectionReader& r, size_t row, int column) {
  switch (r.number(row, column)) {
    case 1: return NodeType::CA;
    case 2: return NodeType::Switch;
    case 3: return NodeType::Router;
    default: r.fail(row, "NodeType '" + r.text(row, column) + "' is not 1, 2 or 3");
  }
}

void add_nodes(const DbCsv& db, Fabric& fabric) {
  const CsvSection& s = need_section(db, "NODES");
  SectionReader r(db, s);
  const int desc = r.need("NodeDesc"), ports = r.need("NumPorts"), type = r.need("NodeType"),
            sysimg = r.need("SystemImageGUID"), guid = r.need("NodeGUID"), device = r.need("DeviceID"),
            vendor = r.need("VendorID");
  fabric.reserve(r.rows());
  for (size_t i = 0; i < r.rows(); ++i) {
    const uint64_t g = r.number(i, guid);
    const uint64_t count = r.number(i, ports);
    if (count > 255) r.fail(i, "NumPorts " + r.text(i, ports) + " is more than 255");
    const NodeType t = node_type(r, i, type);
    // A multi-port CA has one row per port. A row repeating a GUID with another type, port
    // count or description is a second node with the same GUID: kept, so that the check says
    // duplicate_guid, though its ports and links (keyed by GUID in this file) go to the first.
    if (const auto first = fabric.find_guid(g)) {
      const Node& n = fabric.node(*first);
      if (n.type == t && n.num_ports == static_cast<int>(count) && n.description == r.text(i, desc)) continue;
    }
    NodeId id = fabric.add_node(t, g, r.text(i, desc), static_cast<int>(count));
    Node& n = fabric.node(id);
    n.sysimg_guid = r.number(i, sysimg);
    n.device_id = static_cast<uint32_t>(r.number(i, device));
    n.vendor_id = static_cast<uint32_t>(r.number(i, vendor));
  }
}

NodeId node_of(const Fabric& fabric, const SectionReader& r, size_t row, int column, const std::string& section) {
  auto id = fabric.find_guid(r.number(row, column));
  if (!id) r.fail(row, section + " names node " + r.text(row, column) + ", which NODES lacks");
  return *id;
}

int port_of(const Fabric& fabric, NodeId node, const SectionReader& r, size_t row, int column) {
  const uint64_t n = r.number(row, column);
  if (n > static_cast<uint64_t>(fabric.node(node).num_ports))
    r.fail(row,
           "port " + r.text(row, column) + " of a node with " + std::to_string(fabric.node(node).num_ports) + " ports");
  return static_cast<int>(n);
}

void add_ports(const DbCsv& db, Fabric& fabric) {
  const CsvSection& s = need_section(db, "PORTS");
  SectionReader r(db, s);
  const int node = r.need("NodeGuid"), guid = r.need("PortGuid"), num = r.need("PortNum"), lid = r.need("LID"),
            lmc = r.need("LMC"), state = r.need("PortState"), phys = r.need("PortPhyState"),
            wact = r.need("LinkWidthActv"), wsup = r.need("LinkWidthSup"), wen = r.need("LinkWidthEn"),
            sact = r.need("LinkSpeedActv"), ssup = r.need("LinkSpeedSup"), sen = r.need("LinkSpeedEn");
  for (size_t i = 0; i < r.rows(); ++i) {
    const NodeId id = node_of(fabric, r, i, node, "PORTS");
    Port& p = *fabric.node(id).port(port_of(fabric, id, r, i, num));
    p.guid = r.number(i, guid);
    p.lid = static_cast<uint16_t>(r.number(i, lid));
    p.lmc = static_cast<uint8_t>(r.number(i, lmc));
    const uint64_t st = r.number(i, state), ph = r.number(i, phys);
    p.state = st <= 4 ? static_cast<PortState>(st) : PortState::Unknown;
    p.phys = ph <= 7 ? static_cast<PhysState>(ph) : PhysState::Unknown;
    p.active = rate(r, i, wact, sact);
    p.supported = rate(r, i, wsup, ssup);
    p.enabled = rate(r, i, wen, sen);
  }
  // A switch answers on one LID, held by port 0 (the model's convention, as the text loaders).
  for (NodeId id = 0; id < fabric.size(); ++id) {
    Node& n = fabric.node(id);
    if (!n.is_switch()) continue;
    for (Port& p : n.ports) {
      p.lid = n.ports[0].lid;
      p.lmc = n.ports[0].lmc;
    }
  }
}

// SWITCHES (optional: older ibdiagnet versions and trimmed captures lack it): ENP0 is
// SwitchInfo's EnhancedPort0.
void add_switch_info(const DbCsv& db, Fabric& fabric) {
  const CsvSection* s = db.find("SWITCHES");
  if (!s) return;
  SectionReader r(db, *s);
  const int node = r.need("NodeGUID"), enp0 = r.need("ENP0");
  for (size_t i = 0; i < r.rows(); ++i)
    fabric.node(node_of(fabric, r, i, node, "SWITCHES")).base_port0 = r.number(i, enp0) == 0;
}

void add_links(const DbCsv& db, Fabric& fabric) {
  const CsvSection& s = need_section(db, "LINKS");
  SectionReader r(db, s);
  const int g1 = r.need("NodeGuid1"), p1 = r.need("PortNum1"), g2 = r.need("NodeGuid2"), p2 = r.need("PortNum2");
  for (size_t i = 0; i < r.rows(); ++i) {
    const NodeId a = node_of(fabric, r, i, g1, "LINKS"), b = node_of(fabric, r, i, g2, "LINKS");
    const PortEnd ea{a, port_of(fabric, a, r, i, p1)}, eb{b, port_of(fabric, b, r, i, p2)};
    const PortEnd ra = fabric.port(ea).remote, rb = fabric.port(eb).remote;
    if (ra == eb && rb == ea) continue;  // a link listed from both ends
    if (ra.valid() || rb.valid())
      r.fail(i, "a port linked twice: " + fabric.port_name(ra.valid() ? ea : eb) + " already links to " +
                    fabric.port_name(ra.valid() ? ra : rb));
    fabric.connect(ea, eb);
  }
}

}  // namespace

Fabric fabric_from_db_csv(const DbCsv& db) {
  Fabric fabric;
  add_nodes(db, fabric);
  add_ports(db, fabric);
  add_switch_info(db, fabric);
  add_links(db, fabric);
  fabric.reset_names_to_descriptions();
  return fabric;
}

}  // namespace ibburn::topo
