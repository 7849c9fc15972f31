// What the text loaders accept beyond clean dumps: the tools' own noise lines (skipped and
// counted), truncated dumps under --allow-partial, ibsim netfiles without descriptions, and
// fabrics of a single HCA.
#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "fabric_expect.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;
using namespace ibburn::topo::testing;

namespace {

// One of each kind of noise line, as the tools print them.
const char* const kNoise[] = {
    "DR path slid 0; dlid 0; 0,1 -> new Channel Adapter {0002c90000001000} portnum 1 lid 0-0 \"\"",
    "Lid 4 DR path slid 4; dlid 65535; 0,33 -> known Switch {0002c90000000100} portnum 0 lid 1-1 \"leaf\"",
    "src/query_smp.c:98; umad (DR path slid 0; dlid 0; 0,1,3 Attr 0x11:0) bad status 110; Connection timed out",
    "ibnetdisc.c:330; Failed to query node info",
    "ibwarn: [12345] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1,3)",
    "ibdebug: [12345] smp_query_via: attr 0x11 mod 0x0 route DR path slid 0; dlid 0; 0",
    "ibnetdiscover: iberror: failed: discover failed",
    "  ibpanic: [99] mad_rpc_open_port: can't open UMAD port ((null):0): No such file or directory",
};

Fabric parse(const std::string& text, Collected& c) { return parse_fabric_text(text, "dump.txt", c.options); }

}  // namespace

TEST(NoiseLines, EachKindAtTheTopInARecordAndAtTheEnd) {
  for (const char* noise : kNoise) {
    SCOPED_TRACE(noise);
    // Before the header, between a record's lines, and last.
    std::string n = std::string(noise) + "\n";
    std::string text = n + kSwitch.substr(0, kSwitch.find("[1]")) + n + kSwitch.substr(kSwitch.find("[1]")) + kCa + n;
    Collected c;
    Fabric f = parse(text, c);
    EXPECT_EQ(f.size(), 2u);
    EXPECT_EQ(f.links().size(), 1u);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_TRUE(
        c.warnings[0].starts_with("dump.txt: skipped 3 lines of diagnostic tool messages (the first, line 1: '"))
        << c.warnings[0];
  }
}

TEST(NoiseLines, RealIbnetdiscoverShowOutputLoads) {
  Collected c;
  Fabric f = load_fabric_file(data("ibnetdiscover-s.txt"), c.options);
  EXPECT_EQ(f.switch_count(), 2u);
  EXPECT_EQ(f.ca_count(), 2u);
  EXPECT_EQ(f.links().size(), 4u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_TRUE(c.warnings[0].find("skipped 7 lines") != std::string::npos) << c.warnings[0];
}

TEST(NoiseLines, PortsReportIsStillRecognisedAfterNoise) {
  std::string text = std::string(kNoise[4]) + "\n" +
                     "CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'h1' - 'sw1' )\n" +
                     kNoise[0] + "\n" +
                     "SW  1719 11 0x7cfe9003009ce5b0 4x SDR                                    'sw1'\n";
  Collected c;
  Fabric f = parse(text, c);
  EXPECT_EQ(f.links().size(), 1u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_TRUE(c.warnings[0].find("skipped 2 lines") != std::string::npos);
  // The unlinked port is no link and has no rate (a down port's PortInfo holds none).
  const Port& p11 = node_by_guid(f, 0x7cfe9003009ce5b0).ports[11];
  EXPECT_FALSE(p11.linked());
  EXPECT_FALSE(p11.active.known());
  EXPECT_EQ(p11.active.width, Width::Unknown);
}

TEST(NoiseLines, GarbageIsStillRefusedWithItsLine) {
  std::string text = std::string(kNoise[0]) + "\n" + kSwitch + "this is not a tool message\n" + kCa;
  Collected c;
  try {
    parse(text, c);
    FAIL() << "garbage accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 6);
  }
  // Looks like a source location but is not one.
  for (const char* bad : {"query_smp.c 98; umad", "DR path", "warning: something"}) {
    try {
      parse(std::string(bad) + "\n" + kSwitch + kCa, c);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), 1) << bad;
    }
  }
}

TEST(AllowPartial, TruncatedDumpFailsByDefaultAndLoadsWithTheFlag) {
  Collected c;
  try {
    parse(kSwitch, c);
    FAIL() << "a truncated dump loaded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.reason().find("--allow-partial"), std::string::npos);
  }
  c.options.allow_partial = true;
  Fabric f = parse(kSwitch, c);
  EXPECT_EQ(f.size(), 1u);
  EXPECT_TRUE(f.links().empty());
  const Port& p = f.node(0).ports[1];
  EXPECT_TRUE(p.peer_unreached);
  EXPECT_EQ(p.phys, PhysState::LinkUp);
  EXPECT_EQ(p.active, (LinkRate{Width::X4, Speed::HDR}));
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "dump.txt: loaded a partial fabric: 1 port links to 1 node the file has no record of, kept as "
            "unreached peers: \"H-0000000000000020\" ('h1 mlx5_0') (line 3)");
}

TEST(AllowPartial, ACompleteDumpGivesNoWarning) {
  Collected c;
  c.options.allow_partial = true;
  Fabric f = parse(kSwitch + kCa, c);
  EXPECT_EQ(f.links().size(), 1u);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(IbsimNetfile, NodeIdsBecomeDescriptionsWhenNoneIsGiven) {
  // As ibsim reads it: no `# "desc"` on a record means the id is the description.
  Fabric f = load_fabric_file(data("ibsim-tiny.net"));
  EXPECT_EQ(f.size(), 4u);
  EXPECT_EQ(f.links().size(), 4u);
  EXPECT_EQ(node_by_guid(f, 0x2c90000001000).description, "gpu01 mlx5_0");
  EXPECT_EQ(node_by_guid(f, 0x2c90000001000).name, "gpu01 mlx5_0");
  EXPECT_EQ(node_by_guid(f, 0x2c90000000100).description, "leaf-1");
  // ibnetdiscover run against ibsim on this netfile saw the same names.
  Collected quiet;
  Fabric seen = load_fabric_file(data("ibnetdiscover-s.txt"), quiet.options);
  for (const Node& n : f.nodes()) EXPECT_EQ(node_by_guid(seen, n.guid).description, n.description);
  // A quoted description still wins, an empty one stays empty.
  Fabric g = parse_fabric_text(
      "caguid=0x20\nHca 1 \"h1\" # \"named\"\n\ncaguid=0x30\nCa 1 \"H-0000000000000030\" # \"\"\n", "n.net");
  EXPECT_EQ(node_by_guid(g, 0x20).description, "named");
  EXPECT_EQ(node_by_guid(g, 0x30).description, "");
}

TEST(EmptyFabric, OneHcaWithoutSwitch) {
  Collected c;
  Fabric f = parse("caguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"h1 mlx5_0\"\n", c);
  EXPECT_EQ(f.ca_count(), 1u);
  EXPECT_EQ(f.switch_count(), 0u);
  EXPECT_TRUE(f.links().empty());
  EXPECT_EQ(f.islands().size(), 1u);
  Fabric g = parse(
      "CA: h1 mlx5_0:\n      0x0000000000000021      0    1[  ] ==(                Down/ Polling)==>"
      "             [  ] \"\" ( )\n",
      c);
  EXPECT_EQ(g.ca_count(), 1u);
  EXPECT_TRUE(g.links().empty());
  EXPECT_EQ(g.node(0).ports[1].phys, PhysState::Polling);
  EXPECT_EQ(g.node(0).ports[1].state, PortState::Down);
  EXPECT_TRUE(c.warnings.empty());
}
