// iblinkinfo output (default, --line, -S) loads as the fabric it shows. The data files were
// captured from the real tool run against ibsim (tests/topo/data/PROVENANCE.md), so the
// expected fabric is the netfile the simulation ran.
#include <gtest/gtest.h>

#include "common/error.h"
#include "fabric_expect.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;
using namespace ibburn::topo::testing;

namespace {

constexpr uint64_t kLeaf = 0x2c90000000100, kSpine = 0x2c90000000200;
constexpr uint64_t kGpu01Port = 0x2c90000001001, kGpu02Port = 0x2c90000002001;
constexpr LinkRate kHdr{Width::X4, Speed::HDR}, kEdr{Width::X4, Speed::EDR};

// The tiny fabric as iblinkinfo sees it: CAs are known by their port GUIDs.
void expect_tiny_fabric(const Fabric& f) {
  EXPECT_EQ(f.switch_count(), 2u);
  EXPECT_EQ(f.ca_count(), 2u);
  EXPECT_EQ(f.links().size(), 4u);
  expect_link(f, kLeaf, 1, kGpu01Port, 1, kHdr);
  expect_link(f, kLeaf, 2, kGpu02Port, 1, kHdr);
  expect_link(f, kLeaf, 7, kSpine, 1, kEdr);
  expect_link(f, kLeaf, 8, kSpine, 2, kEdr);
  const Node& leaf = node_by_guid(f, kLeaf);
  EXPECT_EQ(leaf.description, "leaf-1");
  EXPECT_EQ(leaf.num_ports, 8);
  EXPECT_EQ(leaf.ports[0].lid, 1);
  EXPECT_EQ(leaf.ports[7].state, PortState::Active);
  EXPECT_EQ(leaf.ports[7].phys, PhysState::LinkUp);
  EXPECT_EQ(leaf.ports[3].state, PortState::Down);
  EXPECT_EQ(leaf.ports[3].phys, PhysState::Polling);
  EXPECT_FALSE(leaf.ports[3].linked());
  EXPECT_FALSE(leaf.ports[3].active.known());
  const Node& gpu02 = node_by_guid(f, kGpu02Port);
  EXPECT_EQ(gpu02.description, "gpu02 mlx5_0");
  EXPECT_EQ(gpu02.ports[1].lid, 4);
  EXPECT_EQ(gpu02.ports[1].guid, kGpu02Port);
  EXPECT_EQ(node_by_guid(f, kSpine).ports[0].lid, 2);
}

}  // namespace

TEST(Iblinkinfo, DefaultOutputWithAnIbwarnLine) {
  Collected c;
  expect_tiny_fabric(load_fabric_file(data("iblinkinfo-default.txt"), c.options));
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("skipped 1 line of diagnostic tool messages (the first, line 1: 'ibwarn:"),
            std::string::npos);
}

TEST(Iblinkinfo, LineOutput) {
  Collected c;
  expect_tiny_fabric(load_fabric_file(data("iblinkinfo-line.txt"), c.options));
  EXPECT_TRUE(c.warnings.empty());
}

TEST(Iblinkinfo, SingleSwitchIsAPartialFabric) {
  Collected c;
  Fabric f = load_fabric_file(data("iblinkinfo-S-spine.txt"), c.options);
  EXPECT_EQ(f.size(), 1u);
  EXPECT_TRUE(f.links().empty());
  const Node& spine = node_by_guid(f, kSpine);
  EXPECT_EQ(spine.num_ports, 4);
  EXPECT_TRUE(spine.ports[1].peer_unreached);
  EXPECT_EQ(spine.ports[1].active, kEdr);
  EXPECT_FALSE(spine.ports[3].peer_unreached);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], data("iblinkinfo-S-spine.txt") +
                               ": loaded a partial fabric: 2 ports link to 1 node the file has no record of, kept "
                               "as unreached peers: 'leaf-1' (LID 1) (line 2)");
}

TEST(Iblinkinfo, FormatLineByLine) {
  // Every speed word libibmad prints, a --switch-settings suffix, an unreached peer.
  const std::string text =
      "Switch: 0x0000000000000010 MF0;sw:MQM9700/U1:\n"
      "           1    1[  ] ==( 4X        106.25 Gbps Active/  LinkUp)==>       2    1[  ] \"a\" ( )\n"
      "           1    2[  ] ==( 2X         212.5 Gbps Active/  LinkUp)==>       3    1[  ] \"b\" ( )\n"
      "           1    3[  ] ==( 4X 10.0 Gbps (FDR10) Active/  LinkUp) (HOQ:17 VL_Stall:7)==>       4    1[  ] \"c\" "
      "(Could be FDR10)\n"
      "           1    4[  ] ==( 1X           2.5 Gbps Initialize/  LinkUp)==>    \"Port not available\"\n"
      "CA: a:\n"
      "      0x0000000000000021      2    1[  ] ==( 4X        106.25 Gbps Active/  LinkUp)==>       1    1[  ] "
      "\"MF0;sw:MQM9700/U1\" ( )\n"
      "CA: b:\n"
      "      0x0000000000000031      3    1[  ] ==( 2X         212.5 Gbps Active/  LinkUp)==>       1    2[  ] "
      "\"MF0;sw:MQM9700/U1\" ( )\n"
      "CA: c:\n"
      "      0x0000000000000041      4    1[  ] ==( 4X     14.0625 Gbps Armed/  LinkUp)==>       1    3[  ] "
      "\"MF0;sw:MQM9700/U1\" ( )\n";
  Collected c;
  Fabric f = parse_fabric_text(text, "links.txt", c.options);
  EXPECT_EQ(f.links().size(), 3u);
  const Node& sw = node_by_guid(f, 0x10);
  EXPECT_EQ(sw.description, "MF0;sw:MQM9700/U1");
  EXPECT_EQ(sw.ports[1].active, (LinkRate{Width::X4, Speed::NDR}));
  EXPECT_EQ(sw.ports[2].active, (LinkRate{Width::X2, Speed::XDR}));
  EXPECT_EQ(sw.ports[3].active, (LinkRate{Width::X4, Speed::FDR10}));
  EXPECT_EQ(sw.ports[4].state, PortState::Init);
  EXPECT_TRUE(sw.ports[4].peer_unreached);
  EXPECT_EQ(node_by_guid(f, 0x41).ports[1].state, PortState::Armed);
  EXPECT_EQ(node_by_guid(f, 0x41).ports[1].active, (LinkRate{Width::X4, Speed::FDR}));
}

TEST(Iblinkinfo, MalformedLinesNameTheirLine) {
  const std::string head = "Switch: 0x0000000000000010 sw:\n";
  struct Case {
    std::string line;
    std::string reason;
  } cases[] = {
      {"           1    1[  ] ==( 4X  3.0 Gbps Active/  LinkUp)==>       2    1[  ] \"a\" ( )",
       "expected a width and lane speed such as \"4X 25.78125 Gbps\", got ' 4X  3.0 Gbps Active/  LinkUp'"},
      {"           1    1[  ] ==( 4X  2.5 Gbps Sleeping/  LinkUp)==>       2    1[  ] \"a\" ( )",
       "unknown port state 'Sleeping/LinkUp'"},
      {"           1    0[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )",
       "port '0[  ' is not a port number from 1 to 255 followed by [ext]"},
      {"           1    1[  ] ==( 4X  2.5 Gbps Active/  LinkUp)       2    1[  ] \"a\" ( )",
       "expected ==( ... )==> after the port, got '==( 4X  2.5 Gbps Active/  LinkUp)       2    1[  ] \"a\" ( )'"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.line);
    try {
      parse_fabric_text(head + k.line + "\n", "bad.txt");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), 2);
      EXPECT_EQ(e.reason(), k.reason);
    }
  }
}

TEST(Iblinkinfo, TruncatedDumpNeedsAllowPartial) {
  // gpu01's line names leaf-1, whose lines were cut.
  const std::string text =
      "CA: gpu01 mlx5_0:\n"
      "      0x0002c90000001001      3    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       1    1[  ] "
      "\"leaf-1\" ( )\n"
      "CA: gpu02 mlx5_0:\n"
      "      0x0002c90000002001      4    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       1    2[  ] "
      "\"leaf-1\" ( )\n";
  try {
    parse_fabric_text(text, "cut.txt");
    FAIL() << "loaded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.reason(),
              "the peer 'leaf-1' (LID 1) port 1 has no lines of its own: the dump is truncated or edited "
              "(--allow-partial loads the rest)");
  }
  Collected c;
  c.options.allow_partial = true;
  Fabric f = parse_fabric_text(text, "cut.txt", c.options);
  EXPECT_EQ(f.ca_count(), 2u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("2 ports link to 1 node"), std::string::npos) << c.warnings[0];
}
