#pragma once
// Assertions shared by the fabric I/O tests: find nodes by GUID, check a link, compare
// two fabrics field by field.
#include <gtest/gtest.h>

#include <string>

#include <vector>

#include "topo/fabric.h"
#include "topo/fabric_io.h"

#include "tests/support/test_paths.h"

namespace ibburn::topo::testing {

// A small valid dump: one switch, one HCA, one cable (tests break or cut it).
inline const std::string kSwitch =
    "switchguid=0x10(10)\n"
    "Switch\t4 \"S-0000000000000010\"\t\t# \"sw\" enhanced port 0 lid 1 lmc 0\n"
    "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"h1 mlx5_0\" lid 2 4xHDR\n"
    "\n";
inline const std::string kCa =
    "caguid=0x20\n"
    "Ca\t1 \"H-0000000000000020\"\t\t# \"h1 mlx5_0\"\n"
    "[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 2 lmc 0 \"sw\" lid 1 4xHDR\n";

// A file under tests/topo/data (provenance in its PROVENANCE.md).
inline std::string data(const std::string& name) { return ibburn::testing::source_dir() + "/tests/topo/data/" + name; }

// Load options whose warnings are kept for the test to read.
struct Collected {
  LoadOptions options;
  std::vector<std::string> warnings;
  Collected() {
    options.warn = [this](const std::string& w) { warnings.push_back(w); };
  }
};

inline const Node& node_by_guid(const Fabric& f, uint64_t guid) {
  auto id = f.find_guid(guid);
  if (!id) throw std::runtime_error("no node with GUID " + std::to_string(guid));
  return f.node(*id);
}

// The link a[pa] <-> b[pb] exists (seen from both ends) with this active rate on both ends.
inline void expect_link(const Fabric& f, uint64_t a, int pa, uint64_t b, int pb, LinkRate rate) {
  auto ia = f.find_guid(a), ib = f.find_guid(b);
  ASSERT_TRUE(ia && ib) << std::hex << a << " / " << b;
  const Port* porta = f.node(*ia).port(pa);
  const Port* portb = f.node(*ib).port(pb);
  ASSERT_TRUE(porta && portb);
  EXPECT_EQ(porta->remote, (PortEnd{*ib, pb})) << std::hex << a << "[" << std::dec << pa << "]";
  EXPECT_EQ(portb->remote, (PortEnd{*ia, pa})) << std::hex << b << "[" << std::dec << pb << "]";
  EXPECT_EQ(to_string(porta->active), to_string(rate));
  EXPECT_EQ(to_string(portb->active), to_string(rate));
}

inline void expect_same_fabric(const Fabric& x, const Fabric& y) {
  ASSERT_EQ(x.size(), y.size());
  for (NodeId i = 0; i < x.size(); ++i) {
    const Node& a = x.node(i);
    const Node& b = y.node(i);
    SCOPED_TRACE("node " + std::to_string(i) + " " + a.description);
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.guid, b.guid);
    EXPECT_EQ(a.sysimg_guid, b.sysimg_guid);
    EXPECT_EQ(a.base_port0, b.base_port0) << a.description;
    EXPECT_EQ(a.vendor_id, b.vendor_id);
    EXPECT_EQ(a.device_id, b.device_id);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.num_ports, b.num_ports);
    ASSERT_EQ(a.ports.size(), b.ports.size());
    for (size_t p = 0; p < a.ports.size(); ++p) {
      const Port& pa = a.ports[p];
      const Port& pb = b.ports[p];
      SCOPED_TRACE("port " + std::to_string(p));
      EXPECT_EQ(pa.number, pb.number);
      EXPECT_EQ(pa.guid, pb.guid);
      EXPECT_EQ(pa.lid, pb.lid);
      EXPECT_EQ(pa.lmc, pb.lmc);
      EXPECT_EQ(pa.state, pb.state);
      EXPECT_EQ(pa.phys, pb.phys);
      EXPECT_EQ(pa.active, pb.active);
      EXPECT_EQ(pa.supported, pb.supported);
      EXPECT_EQ(pa.enabled, pb.enabled);
      EXPECT_EQ(pa.label, pb.label);
      EXPECT_EQ(pa.remote, pb.remote);
      EXPECT_EQ(pa.peer_unreached, pb.peer_unreached);
    }
  }
}

// Ports whose active rate is `rate`.
inline size_t ports_at(const Fabric& f, LinkRate rate) {
  size_t n = 0;
  for (const Node& node : f.nodes())
    for (const Port& p : node.ports)
      if (p.linked() && p.active == rate) ++n;
  return n;
}

}  // namespace ibburn::topo::testing
