// Every real dump in ../shared/corpus/ibnetdiscover loads (or fails exactly as documented).
// Expected counts were taken from the files with grep/awk (one record line per node, one
// port line per linked port end, each link listed from both ends) and SOURCES.md, not from
// this parser.
#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "fabric_expect.h"
#include "tests/support/corpus.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;
using namespace ibburn::topo::testing;

namespace {

std::string corpus(const std::string& name) { return ibburn::testing::corpus_path("ibnetdiscover/" + name); }

using FabricCorpus = ibburn::testing::CorpusTest;

// The given 1-based lines of a corpus file, in that order.
std::string read_corpus_lines(const std::string& name, std::initializer_list<int> lines) {
  std::string text = read_file(corpus(name)), out;
  std::vector<std::string> all;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    all.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  for (int l : lines) out += all.at(static_cast<size_t>(l - 1)) + "\n";
  return out;
}

constexpr LinkRate kX4Qdr{Width::X4, Speed::QDR};
constexpr LinkRate kUnknownRate{};

}  // namespace

TEST_F(FabricCorpus, Infiniscale3From2009WithoutPortGuidsOrRates) {
  Fabric f = load_fabric_file(corpus("infiniscale3-2009-noSpeed-ompi-users-7713.txt"));
  EXPECT_EQ(f.switch_count(), 1u);
  EXPECT_EQ(f.ca_count(), 24u);
  EXPECT_EQ(f.links().size(), 24u);
  expect_link(f, 0x000b8cffff002347, 24, 0x0002c90200267924, 1, kUnknownRate);
  const Node& sw = node_by_guid(f, 0x000b8cffff002347);
  EXPECT_EQ(sw.description, "MT47396 Infiniscale-III Mellanox Technologies");
  EXPECT_EQ(sw.num_ports, 24);
  EXPECT_EQ(sw.ports[0].lid, 1);
  EXPECT_EQ(sw.device_id, 0xb924u);
  const Node& ca = node_by_guid(f, 0x0002c90200267924);
  EXPECT_EQ(ca.description, "node24 HCA-1");
  EXPECT_EQ(ca.sysimg_guid, 0x2c90200267927u);
  EXPECT_EQ(ca.device_id, 0x6274u);
  EXPECT_EQ(ca.vendor_id, 0x2c9u);
  EXPECT_EQ(ca.ports[1].lid, 18);
  // The 2009 format prints no port GUIDs: each port gets the one ibsim gives it (node GUID + port).
  EXPECT_EQ(ca.ports[1].guid, 0x0002c90200267925u);
  EXPECT_EQ(node_by_guid(f, 0x0002c9020022b38c).ports[1].lid, 121);  // node15
  EXPECT_EQ(f.islands().size(), 1u);
}

TEST_F(FabricCorpus, Sx6036FatTreeWithFdr10Uplinks) {
  Fabric f = load_fabric_file(corpus("sx6036-fdr10-qdr-2014-loginoff.txt"));
  EXPECT_EQ(f.switch_count(), 8u);
  EXPECT_EQ(f.ca_count(), 144u);
  EXPECT_EQ(f.links().size(), 192u);
  // grep: 94 port lines at 4xFDR10, 290 at 4xQDR.
  EXPECT_EQ(ports_at(f, {Width::X4, Speed::FDR10}), 94u);
  EXPECT_EQ(ports_at(f, kX4Qdr), 290u);
  expect_link(f, 0xf4521403001165a0, 1, 0x24be05ffff980030, 1, kX4Qdr);
  expect_link(f, 0xf4521403001165a0, 21, 0xf4521403007ea570, 26, {Width::X4, Speed::FDR10});
  const Node& sw = node_by_guid(f, 0xf4521403001165a0);
  EXPECT_EQ(sw.description, "MF0;ib5:SX6036/U1");
  EXPECT_EQ(sw.ports[0].lid, 128);
  EXPECT_EQ(sw.ports[0].guid, 0xf4521403001165a0u);
  EXPECT_EQ(node_by_guid(f, 0x24be05ffff980030).ports[1].guid, 0x24be05ffff980031u);
  // tank1 has both ports on the same switch.
  expect_link(f, 0xf452140300081a20, 1, 0xf4521403007eaa70, 12, kX4Qdr);
  expect_link(f, 0xf452140300081a20, 2, 0xf4521403007eaa70, 9, kX4Qdr);
  const Node& tank1 = node_by_guid(f, 0xf452140300081a20);
  EXPECT_EQ(tank1.ports[1].lid, 13);
  EXPECT_EQ(tank1.ports[2].lid, 10);
  EXPECT_EQ(tank1.ports[2].guid, 0xf452140300081a22u);
}

TEST_F(FabricCorpus, Is5600JanusLargeUngroupedDump) {
  Fabric f = load_fabric_file(corpus("is5600-qdr-janus-2014-mlunacek.txt"));
  EXPECT_EQ(f.switch_count(), 214u);
  EXPECT_EQ(f.ca_count(), 1356u);
  EXPECT_EQ(f.links().size(), 4168u);
  EXPECT_EQ(ports_at(f, kX4Qdr), 8336u);
  expect_link(f, 0x0002c90200419cb8, 1, 0x0002c9020041beb0, 5, kX4Qdr);
  expect_link(f, 0x0002c9030008e6d4, 1, 0x0002c9020041dc88, 2, kX4Qdr);  // the last record, no newline
  const Node& jana = node_by_guid(f, 0x0002c9030008e6d4);
  EXPECT_EQ(jana.description, "jana HCA-1");
  EXPECT_EQ(jana.ports[1].lid, 1342);
  EXPECT_EQ(jana.ports[1].guid, 0x2c9030008e6d5u);
  EXPECT_EQ(node_by_guid(f, 0x0002c90200419cb8).ports[0].lid, 1169);
  size_t with32 = 0;
  for (const Node& n : f.nodes()) with32 += n.is_switch() && n.num_ports == 32;
  EXPECT_EQ(with32, 1u);
}

TEST_F(FabricCorpus, Qm8700LabWithLoopbackCablesAndMixedRates) {
  Fabric f = load_fabric_file(corpus("qm8700-sx6036-hdr-fdr-lab-2021-orkreizman.txt"));
  EXPECT_EQ(f.switch_count(), 2u);
  EXPECT_EQ(f.ca_count(), 13u);
  EXPECT_EQ(f.links().size(), 16u);
  const uint64_t sx = 0x0002c903007b78b0, qm = 0xb8599f0300fc6de4;
  expect_link(f, sx, 25, sx, 26, {Width::X4, Speed::FDR10});
  expect_link(f, sx, 28, sx, 29, {Width::X4, Speed::FDR});
  expect_link(f, qm, 3, sx, 1, {Width::X4, Speed::FDR});
  expect_link(f, qm, 41, 0xb8599f0300fc6dec, 1, {Width::X4, Speed::HDR});
  expect_link(f, qm, 23, 0xec0d9a03007d7d0a, 1, {Width::X4, Speed::EDR});
  EXPECT_EQ(ports_at(f, {Width::X4, Speed::EDR}), 4u);
  EXPECT_EQ(ports_at(f, {Width::X4, Speed::FDR}), 24u);
  const Node& an = node_by_guid(f, 0xb8599f0300fc6dec);
  EXPECT_EQ(an.description, "Mellanox Technologies Aggregation Node");
  EXPECT_EQ(an.sysimg_guid, qm);  // the SHARP node shares the switch's system image GUID
  EXPECT_EQ(an.device_id, 0xcf09u);
  EXPECT_EQ(node_by_guid(f, qm).num_ports, 41);
  EXPECT_EQ(node_by_guid(f, 0x0c42a103008b40d0).ports[1].guid, 0xc42a103008b40d0u);
}

TEST_F(FabricCorpus, RedactedQm9700DumpFailsAtTheFirstRedactedGuid) {
  try {
    load_fabric_file(corpus("qm9700-ndr200-charlie0129-redacted.txt"));
    FAIL() << "a redacted dump must not load";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 8);
    EXPECT_EQ(e.reason(),
              "sysimgguid '0x9c05<redacted>' is not a 64-bit hexadecimal GUID (it looks redacted; "
              "ibburn needs the real GUIDs)");
    EXPECT_EQ(e.code(), kExitInput);
  }
}

TEST_F(FabricCorpus, Ibdiagnet2VariantWithPortLabels) {
  Fabric f = load_fabric_file(corpus("ibdiagnet2-qm9700-ndr-sequoia-2025-gary-minghuili.txt"));
  EXPECT_EQ(f.switch_count(), 9u);
  EXPECT_EQ(f.ca_count(), 263u);
  EXPECT_EQ(f.links().size(), 271u);
  const LinkRate ndr{Width::X4, Speed::NDR};
  EXPECT_EQ(ports_at(f, ndr), 542u);
  expect_link(f, 0xb0cf0e0300d33fc0, 1, 0xfc6a1c030091cf00, 63, ndr);
  expect_link(f, 0x5c25730300d0c61a, 1, 0xfc6a1c03008a4dc0, 9, ndr);
  expect_link(f, 0xb0cf0e0300e5b948, 1, 0xb0cf0e0300e5b940, 65, ndr);
  const Node& top = node_by_guid(f, 0xb0cf0e0300d33fc0);
  EXPECT_EQ(top.description, "MF0;ib-switch-sequoia:MQM9700/U1");
  EXPECT_EQ(top.num_ports, 65);
  EXPECT_EQ(top.ports[0].lid, 180);
  EXPECT_EQ(top.ports[1].label, "1/1/1");
  EXPECT_EQ(top.ports[8].label, "1/4/2");
  const Node& ca = node_by_guid(f, 0x5c25730300d0c61a);
  EXPECT_EQ(ca.ports[1].label, "B143D0F0/0/0/1");
  EXPECT_EQ(ca.ports[1].guid, 0x5c25730300d0c61au);
  EXPECT_EQ(ca.ports[1].lid, 74);
  EXPECT_EQ(node_by_guid(f, 0xb0cf0e0300e5b948).ports[1].label, "1");
}

TEST_F(FabricCorpus, PortsReportFromOsc) {
  Fabric f = load_fabric_file(corpus("ports-p-edr-osc-treydock-test.txt"));
  // GUIDs in the file: 4 switches (…9ce5b0, …5c2740, …b07320, 08c0eb…) and 3 CA ports.
  EXPECT_EQ(f.switch_count(), 4u);
  EXPECT_EQ(f.ca_count(), 3u);
  EXPECT_EQ(f.links().size(), 4u);
  const LinkRate edr{Width::X4, Speed::EDR};
  expect_link(f, 0x7cfe9003003b4bde, 1, 0x7cfe9003009ce5b0, 10, edr);
  expect_link(f, 0x506b4b0300cc02a6, 1, 0x506b4b03005c2740, 35, edr);
  const Node& leaf = node_by_guid(f, 0x7cfe9003009ce5b0);
  EXPECT_EQ(leaf.description, "ib-i1l1s01");
  EXPECT_EQ(leaf.ports[0].lid, 1719);
  // Seen from one end only (line 6): still a link, rate known on that end.
  const Node& l2 = node_by_guid(f, 0x7cfe900300b07320);
  EXPECT_EQ(leaf.ports[1].remote, (PortEnd{*f.find_guid(0x7cfe900300b07320), 1}));
  EXPECT_EQ(l2.description, "ib-i1l2s01");
  EXPECT_EQ(l2.ports[0].lid, 1516);
  const Node& ca = node_by_guid(f, 0x7cfe9003003b4bde);
  EXPECT_EQ(ca.description, "o0001 HCA-1");
  EXPECT_EQ(ca.ports[1].lid, 134);
  // Unlinked ports exist but are no links, and the rate printed for them (4x ???, 4x SDR)
  // is a down port's meaningless PortInfo: not kept.
  const Node& s4 = node_by_guid(f, 0x506b4b03005c2740);
  EXPECT_FALSE(s4.ports[37].linked());
  EXPECT_EQ(s4.ports[37].active, kUnknownRate);
  const Node& split = node_by_guid(f, 0x08c0eb0300add20e);
  EXPECT_EQ(split.num_ports, 80);
  EXPECT_FALSE(split.ports[80].linked());
  EXPECT_EQ(split.ports[80].active, kUnknownRate);
}

TEST_F(FabricCorpus, HandAssembledPortsReportContradictsItself) {
  // Lines 1 and 5 link the same Aggregation Node port to two different switch ports (and
  // give it two LIDs): the file was assembled from several fabrics (SOURCES.md).
  try {
    load_fabric_file(corpus("ports-p-hdr-treydock-test2.txt"));
    FAIL() << "a contradictory report must not load";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5);
    EXPECT_EQ(e.reason(),
              "port CA 0x946dae0300630bfe[1] is linked to Switch 0x946dae0300630bf6[81] by line 1, "
              "but this line links it to Switch 0x946dae030053ec1a[81]");
  }
}

TEST_F(FabricCorpus, MessyPortsReportLinesParse) {
  // The consistent lines of test2.txt: irregular columns, spaces inside the quotes.
  std::string text = read_corpus_lines("ports-p-hdr-treydock-test2.txt", {1, 2, 3, 4, 6});
  Fabric f = parse_fabric_text(text, "test2-subset");
  EXPECT_EQ(f.switch_count(), 4u);
  EXPECT_EQ(f.ca_count(), 2u);
  EXPECT_EQ(f.links().size(), 2u);
  // Listed from the CA's end only: the switch end's rate is not in the file.
  const Node& worker = node_by_guid(f, 0xb83fd20300da1138);
  EXPECT_EQ(worker.description, "worker20 mlx5_3");
  EXPECT_EQ(worker.ports[1].remote, (PortEnd{*f.find_guid(0x946dae0300630bf6), 79}));
  EXPECT_EQ(worker.ports[1].active, (LinkRate{Width::X4, Speed::HDR}));
  EXPECT_EQ(worker.ports[1].lid, 88);
  EXPECT_EQ(node_by_guid(f, 0x946dae0300630bf6).description, "5FB0405-leaf-IB01 ");
  EXPECT_EQ(node_by_guid(f, 0x946dae0300618c83).description, " 5FB0406-spine-IB02 ");
  EXPECT_EQ(node_by_guid(f, 0x946dae0300618c83).ports[0].lid, 25);
  EXPECT_FALSE(node_by_guid(f, 0x0002c9020040f160).ports[22].linked());  // unlinked (line 6)
  EXPECT_EQ(node_by_guid(f, 0x0002c9020040f160).ports[22].active, kUnknownRate);
}

// ../shared/corpus/iblinkinfo: both published copies were cut by their authors, the SB7700
// listing after switch port 18 of 36 without a mark, the IS5035 snippet with `...` lines.
TEST_F(FabricCorpus, IblinkinfoCutByItsAuthorFailsByDefault) {
  const std::string sb7700 = ibburn::testing::corpus_path("iblinkinfo/sb7700-edr-824380210-linpack.txt");
  const std::string is5035 = ibburn::testing::corpus_path("iblinkinfo/is5035-qdr-legoos-snippet.txt");
  const std::pair<std::string, std::pair<int, std::string>> cases[] = {
      {sb7700,
       {4,
        "port 36 of 'MF0;SB7700:MSB7700/U1' is not listed in its own lines (they end at port 18; "
        "--allow-partial loads a cut listing)"}},
      {is5035, {1, "'...' marks output left out: the dump is incomplete (--allow-partial loads the rest)"}}};
  for (const auto& [file, want] : cases) {
    try {
      load_fabric_file(file);
      ADD_FAILURE() << file << " loaded";
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), want.first) << file;
      EXPECT_EQ(e.reason(), want.second);
    }
  }
}

TEST_F(FabricCorpus, IblinkinfoSb7700LoadsPartiallyWithAllowPartial) {
  Collected c;
  c.options.allow_partial = true;
  const std::vector<std::string>& warnings = c.warnings;
  Fabric f = load_fabric_file(ibburn::testing::corpus_path("iblinkinfo/sb7700-edr-824380210-linpack.txt"), c.options);
  // Two CA headers and one switch header; the switch lists ports 1-18 of 36.
  EXPECT_EQ(f.ca_count(), 2u);
  EXPECT_EQ(f.switch_count(), 1u);
  const LinkRate edr{Width::X4, Speed::EDR};
  const uint64_t sw = 0x506b4b0300820910;
  expect_link(f, 0xec0d9a03003d62be, 1, sw, 17, edr);
  const Node& s = node_by_guid(f, sw);
  EXPECT_EQ(s.description, "MF0;SB7700:MSB7700/U1");
  EXPECT_EQ(s.ports[0].lid, 2);
  EXPECT_EQ(s.ports[5].phys, PhysState::Polling);
  // mgt's cable goes to port 36, beyond the cut: the port exists, linked; its rate is on mgt's end.
  EXPECT_EQ(s.num_ports, 36);
  const Node& mgt = node_by_guid(f, 0x248a070300928186);
  EXPECT_EQ(mgt.description, "mgt mlx5_0");
  EXPECT_EQ(mgt.ports[1].remote, (PortEnd{*f.find_guid(sw), 36}));
  EXPECT_EQ(mgt.ports[1].active, edr);
  // Port 18 names n01, whose CA lines were cut.
  EXPECT_TRUE(s.ports[18].peer_unreached);
  EXPECT_EQ(f.links().size(), 2u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 port links to 1 node the file has no record of, kept as unreached peers: "
                             "'n01 HCA-1' (LID 1) (line 23)"),
            std::string::npos)
      << warnings[0];
}

TEST_F(FabricCorpus, IblinkinfoIs5035SnippetLoadsItsHostsWithAllowPartial) {
  Collected c;
  c.options.allow_partial = true;
  const std::vector<std::string>& warnings = c.warnings;
  Fabric f = load_fabric_file(ibburn::testing::corpus_path("iblinkinfo/is5035-qdr-legoos-snippet.txt"), c.options);
  EXPECT_EQ(f.ca_count(), 3u);
  EXPECT_EQ(f.switch_count(), 0u);  // the switch has no lines of its own
  const Node& w0 = node_by_guid(f, 0xe41d2d0300309251);
  EXPECT_EQ(w0.description, "wuklab00 mlx4_0");
  EXPECT_EQ(w0.ports[1].lid, 8);
  EXPECT_EQ(w0.ports[1].active, kX4Qdr);
  EXPECT_TRUE(w0.ports[1].peer_unreached);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("line 1: '...' marks output left out"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("3 ports link to 1 node"), std::string::npos) << warnings[1];
}
