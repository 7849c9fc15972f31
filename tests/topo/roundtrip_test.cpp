// Writing a fabric and reading it back gives the same model: text -> model -> text -> model
// for ibnetdiscover text, model -> JSON -> model for snapshots.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "common/file_io.h"
#include "fabric_expect.h"
#include "tests/support/corpus.h"
#include "tests/support/temp_dir.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;
using namespace ibburn::topo::testing;
namespace fs = std::filesystem;

namespace {

const char* const kPlainDumps[] = {"infiniscale3-2009-noSpeed-ompi-users-7713.txt",
                                   "sx6036-fdr10-qdr-2014-loginoff.txt", "is5600-qdr-janus-2014-mlunacek.txt",
                                   "qm8700-sx6036-hdr-fdr-lab-2021-orkreizman.txt",
                                   "ibdiagnet2-qm9700-ndr-sequoia-2025-gary-minghuili.txt"};
const char* const kPortsReports[] = {"ports-p-edr-osc-treydock-test.txt"};

Fabric load_corpus(const std::string& name) {
  return load_fabric_file(ibburn::testing::corpus_path("ibnetdiscover/" + name));
}

// Every field the model has, with values a text dump cannot carry (JSON only).
Fabric everything_fabric() {
  Fabric f;
  NodeId sw = f.add_node(NodeType::Switch, 0xfc6a1c0300aa0000, "MF0;leaf-1:MQM9700/U1", 64);
  NodeId h1 = f.add_node(NodeType::CA, 0x5c25730300000010, "gpu001 mlx5_0", 1);
  NodeId h2 = f.add_node(NodeType::CA, 0x5c25730300000020, "gpu002 \"quoted\" mlx5_0", 2);
  NodeId rt = f.add_node(NodeType::Router, 0x0002c90300000030, "router-1", 2);
  Node& s = f.node(sw);
  s.sysimg_guid = 0xfc6a1c0300aa0000;
  s.vendor_id = 0x2c9;
  s.device_id = 0xd2f2;
  s.base_port0 = true;
  s.name = "leaf-1";
  for (Port& p : s.ports) p.lid = 7, p.guid = s.guid;
  s.ports[0].lmc = 2;
  // A text dump cannot leave a router without port GUIDs (the reader gives it ibsim's).
  f.node(rt).ports[2].guid = f.node(rt).guid + 2;
  f.connect({sw, 1}, {h1, 1});
  f.connect({sw, 2}, {h2, 2});
  f.connect({h2, 1}, {rt, 2});    // CA to router
  f.connect({sw, 63}, {sw, 64});  // loopback cable
  for (auto [id, port, rate] : {std::tuple{sw, 1, LinkRate{Width::X4, Speed::NDR}},
                                {h1, 1, LinkRate{Width::X4, Speed::NDR}},
                                {sw, 2, LinkRate{Width::X2, Speed::NDR}},
                                {h2, 2, LinkRate{Width::X2, Speed::NDR}},
                                {h2, 1, LinkRate{Width::X4, Speed::Unknown}},
                                {rt, 2, LinkRate{Width::Unknown, Speed::XDR}},
                                {sw, 63, LinkRate{Width::X1, Speed::SDR}},
                                {sw, 64, LinkRate{Width::X1, Speed::SDR}}}) {
    Port& p = f.node(id).ports[port];
    p.active = rate;
    p.phys = PhysState::LinkUp;
  }
  Port& hp = f.node(h1).ports[1];
  hp.guid = 0x5c25730300000011;
  hp.lid = 12;
  hp.lmc = 1;
  hp.label = "B9D0F0/0/0/1";
  f.node(h2).ports[2].guid = 0x5c25730300000022;
  f.node(h2).ports[2].lid = 13;
  f.node(rt).ports[2].lid = 14;
  s.ports[1].label = "1/1/1";
  // JSON-only fields.
  s.ports[1].state = PortState::Active;
  s.ports[1].supported = {Width::X4, Speed::NDR};
  s.ports[1].enabled = {Width::X4, Speed::HDR};
  s.ports[5].phys = PhysState::Polling;
  s.ports[5].state = PortState::Down;
  s.ports[6].peer_unreached = true;
  f.reindex_names();
  return f;
}

// The fields ibnetdiscover text carries, copied from `f`.
Fabric text_fields_only(const Fabric& f) {
  Fabric out = f;
  for (NodeId i = 0; i < out.size(); ++i) {
    Node& n = out.node(i);
    n.name = n.description;
    for (Port& p : n.ports) {
      p.state = PortState::Unknown;
      p.supported = p.enabled = {};
      p.peer_unreached = false;
      if (!p.linked()) p.phys = PhysState::Unknown, p.active = {};
    }
  }
  out.reindex_names();
  return out;
}

}  // namespace

TEST(FabricRoundTrip, EveryPlainDumpSurvivesTextAndJson) {
  IBBURN_SKIP_WITHOUT_CORPUS();
  for (const char* name : kPlainDumps) {
    SCOPED_TRACE(name);
    Fabric a = load_corpus(name);
    std::string text = to_ibnetdiscover_text(a);
    Fabric b = parse_fabric_text(text, "written");
    expect_same_fabric(a, b);
    EXPECT_EQ(to_ibnetdiscover_text(b), text);
    expect_same_fabric(a, parse_fabric_text(to_json_text(a), "written.json"));
  }
}

// Real switches of both kinds: the written text says "base port 0" for exactly the ones the
// captured one did.
TEST(FabricRoundTrip, BaseAndEnhancedPort0AsCaptured) {
  IBBURN_SKIP_WITHOUT_CORPUS();
  const auto count = [](const std::string& text, const std::string& word) {
    size_t n = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
    return n;
  };
  for (const char* name :
       {"is5600-qdr-janus-2014-mlunacek.txt", "ibdiagnet2-qm9700-ndr-sequoia-2025-gary-minghuili.txt"}) {
    SCOPED_TRACE(name);
    const std::string captured = read_file(ibburn::testing::corpus_path(std::string("ibnetdiscover/") + name));
    const std::string written = to_ibnetdiscover_text(load_corpus(name));
    EXPECT_GT(count(captured, "base port 0"), 0u);
    EXPECT_EQ(count(written, "base port 0"), count(captured, "base port 0"));
    EXPECT_EQ(count(written, "enhanced port 0"), count(captured, "enhanced port 0"));
  }
}

TEST(FabricRoundTrip, PortsReportSurvivesJson) {
  IBBURN_SKIP_WITHOUT_CORPUS();
  for (const char* name : kPortsReports) {
    Fabric a = load_corpus(name);
    expect_same_fabric(a, parse_fabric_text(to_json_text(a), "written.json"));
  }
}

TEST(FabricRoundTrip, JsonKeepsEveryField) {
  Fabric a = everything_fabric();
  Fabric b = parse_fabric_text(to_json_text(a), "everything.json", FabricFormat::Json);
  expect_same_fabric(a, b);
  EXPECT_EQ(*b.find_name("leaf-1"), 0u);
}

TEST(FabricRoundTrip, TextKeepsTopologyRatesLidsGuidsAndLabels) {
  Fabric a = everything_fabric();
  std::string text = to_ibnetdiscover_text(a);
  Fabric b = parse_fabric_text(text, "everything.net", FabricFormat::IbnetdiscoverText);
  expect_same_fabric(text_fields_only(a), b);
  EXPECT_EQ(to_ibnetdiscover_text(b), text);
  EXPECT_EQ(b.node(2).description, "gpu002 \"quoted\" mlx5_0");
  EXPECT_EQ(b.node(3).type, NodeType::Router);
}

TEST(FabricRoundTrip, SaveChoosesFormatByExtensionAndLoadSniffsIt) {
  ibburn::testing::TempDir tmp;
  const fs::path dir = tmp.path();
  Fabric a = everything_fabric();
  save_fabric_file(a, (dir / "f.json").string());
  save_fabric_file(a, (dir / "f.topo").string());
  EXPECT_EQ(read_file((dir / "f.json").string()).substr(0, 35), "{\"format\": \"ibburn-fabric\", \"versio");
  EXPECT_EQ(read_file((dir / "f.topo").string()).substr(0, 1), "#");
  expect_same_fabric(a, load_fabric_file((dir / "f.json").string()));
  expect_same_fabric(text_fields_only(a), load_fabric_file((dir / "f.topo").string()));
}

TEST(FabricRoundTrip, TextRefusesWhatItCannotName) {
  Fabric dup;
  dup.add_node(NodeType::Switch, 0x10, "a", 4);
  dup.add_node(NodeType::Switch, 0x10, "b", 4);
  try {
    to_ibnetdiscover_text(dup);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot write ibnetdiscover text: GUID 0x0000000000000010 belongs to 2 nodes (a, b); "
                 "save the fabric as .json instead");
  }
  Fabric unknown;
  unknown.add_node(NodeType::Unknown, 0x20, "mystery", 1);
  EXPECT_THROW(to_ibnetdiscover_text(unknown), Error);
  EXPECT_NO_THROW(to_json_text(dup));
}
