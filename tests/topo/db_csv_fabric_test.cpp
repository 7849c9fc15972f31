// ibdiagnet2.db_csv as a fabric source: the real capture against the ibnetdiscover text of the
// same run (corpus rows 6 and 18), then plain text for the IBDM speed mask and bad input.
#include "topo/db_csv_fabric.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "common/error.h"
#include "tests/support/corpus.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;

namespace {

const std::string kCaptureDir = "ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili";

// Each link as (guid, port, guid, port), smaller end first, so two loaders' links compare.
std::set<std::tuple<uint64_t, int, uint64_t, int>> link_set(const Fabric& f) {
  std::set<std::tuple<uint64_t, int, uint64_t, int>> out;
  for (const Link& l : f.links()) {
    auto a = std::make_pair(f.node(l.a.node).guid, l.a.port), b = std::make_pair(f.node(l.b.node).guid, l.b.port);
    if (b < a) std::swap(a, b);
    out.emplace(a.first, a.second, b.first, b.second);
  }
  return out;
}

using DbCsvFabricCapture = ibburn::testing::CorpusTest;

TEST_F(DbCsvFabricCapture, SameFabricAsTheIbnetdiscoverTextOfTheRun) {
  const Fabric text = load_fabric_file(
      ibburn::testing::corpus_path("ibnetdiscover/ibdiagnet2-qm9700-ndr-sequoia-2025-gary-minghuili.txt"));
  // The directory stands for its ibdiagnet2.db_csv.
  const Fabric db = load_fabric_file(ibburn::testing::corpus_path(kCaptureDir));
  EXPECT_EQ(db.switch_count(), 9u);
  EXPECT_EQ(db.size(), text.size());
  EXPECT_EQ(db.switch_count(), text.switch_count());
  EXPECT_EQ(db.ca_count(), text.ca_count());
  for (const Node& t : text.nodes()) {
    auto id = db.find_guid(t.guid);
    ASSERT_TRUE(id) << t.description;
    const Node& d = db.node(*id);
    EXPECT_EQ(d.type, t.type) << t.description;
    EXPECT_EQ(d.description, t.description);
    EXPECT_EQ(d.num_ports, t.num_ports) << t.description;
    EXPECT_EQ(d.sysimg_guid, t.sysimg_guid) << t.description;
    EXPECT_EQ(d.device_id, t.device_id) << t.description;
    EXPECT_EQ(d.vendor_id, t.vendor_id) << t.description;
    EXPECT_EQ(d.base_port0, t.base_port0) << t.description;  // SWITCHES' ENP0 against the text's word
    // The text holds linked ports only: their LID and trained width and speed.
    for (const Port& tp : t.ports) {
      if (!tp.linked()) continue;
      const Port* dp = d.port(tp.number);
      ASSERT_NE(dp, nullptr);
      EXPECT_EQ(dp->lid, tp.lid) << t.description << " port " << tp.number;
      EXPECT_EQ(to_string(dp->active), to_string(tp.active)) << t.description << " port " << tp.number;
      EXPECT_EQ(dp->state, PortState::Active) << t.description << " port " << tp.number;
      if (tp.guid) {
        EXPECT_EQ(dp->guid, tp.guid) << t.description << " port " << tp.number;
      }
    }
  }
  EXPECT_EQ(link_set(db), link_set(text));
  EXPECT_FALSE(link_set(db).empty());
  // The run's switches: the managed MQM9700 has an enhanced port 0, the unmanaged Quantum-2s a base one.
  size_t base = 0;
  for (const Node& n : db.nodes()) base += n.base_port0;
  EXPECT_EQ(base, 8u);
  EXPECT_FALSE(db.node(*db.find_guid(0xb0cf0e0300d33fc0)).base_port0);
}

TEST_F(DbCsvFabricCapture, TheFileByNameAndByContent) {
  const std::string path = ibburn::testing::corpus_path(kCaptureDir + "/ibdiagnet2.db_csv");
  EXPECT_EQ(db_csv_file(path), path);
  EXPECT_EQ(link_set(load_fabric_file(path)), link_set(load_fabric_file(ibburn::testing::corpus_path(kCaptureDir))));
}

TEST(DbCsvFabric, SpeedMaskAsIbdmWritesIt) {
  EXPECT_EQ(speed_from_ibdm(0x804), Speed::NDR);  // the capture's active 4xNDR ports
  EXPECT_EQ(speed_from_ibdm(0xf05), Speed::NDR);  // supported SDR, QDR, FDR..NDR: the best
  EXPECT_EQ(speed_from_ibdm(0x204), Speed::EDR);
  EXPECT_EQ(speed_from_ibdm(0x4), Speed::QDR);
  EXPECT_EQ(speed_from_ibdm(0x1), Speed::SDR);
  EXPECT_EQ(speed_from_ibdm(1u << 16), Speed::FDR10);
  EXPECT_EQ(speed_from_ibdm(1u << 24), Speed::XDR);
  EXPECT_EQ(speed_from_ibdm(0), Speed::Unknown);
}

// Two switches and a CA; columns in another order than the capture's.
std::string small_db(const std::string& links) {
  return "START_NODES\n"
         "NodeGUID,NodeDesc,NumPorts,NodeType,SystemImageGUID,DeviceID,VendorID\n"
         "0x10,\"MF0;sw1:MQM9700/U1\",2,2,0x10,54002,713\n"
         "0x20,sw2,2,2,0x20,54002,713\n"
         "0x30,\"h1 mlx5_0\",1,1,0x31,4129,713\n"
         "END_NODES\n"
         "START_PORTS\n"
         "NodeGuid,PortGuid,PortNum,LID,LMC,PortState,PortPhyState,LinkWidthActv,LinkWidthSup,LinkWidthEn,"
         "LinkSpeedActv,LinkSpeedSup,LinkSpeedEn\n"
         "0x10,0x10,0,7,0,4,5,2,3,3,1,1,1\n"
         "0x10,0x10,1,0,0,4,5,2,19,19,2052,3845,3845\n"
         "0x10,0x10,2,0,0,4,5,16,19,19,1028,3845,3845\n"
         "0x30,0x30,1,9,0,4,5,2,19,19,2052,3845,3845\n"
         "END_PORTS\n"
         "START_LINKS\n"
         "NodeGuid1,PortNum1,NodeGuid2,PortNum2\n" +
         links + "END_LINKS\n";
}

TEST(DbCsvFabric, NodesPortsAndLinksByHeaderName) {
  Fabric f = parse_fabric_text(small_db("0x10,1,0x30,1\n0x30,1,0x10,1\n0x10,2,0x20,1\n"), "x.db_csv");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f.links().size(), 2u);  // the link listed from both ends is one
  const Node& sw = f.node(*f.find_guid(0x10));
  EXPECT_TRUE(sw.is_switch());
  EXPECT_EQ(sw.device_id, 0xd2f2u);
  EXPECT_EQ(sw.vendor_id, 0x2c9u);
  EXPECT_EQ(sw.ports[1].lid, 7);  // port 0's LID
  EXPECT_EQ(to_string(sw.ports[1].active), "4xNDR");
  EXPECT_EQ(to_string(sw.ports[2].active), "2xHDR");
  EXPECT_EQ(to_string(sw.ports[1].supported), "4xNDR");
  const Node& ca = f.node(*f.find_guid(0x30));
  EXPECT_EQ(ca.sysimg_guid, 0x31u);
  EXPECT_EQ(ca.ports[1].lid, 9);
  EXPECT_EQ(ca.ports[1].state, PortState::Active);
  EXPECT_EQ(ca.ports[1].phys, PhysState::LinkUp);
}

// A multi-port CA's NODES row per port is one node; a row repeating a GUID as another node
// (another type, description or port count) is a second node, so checks report duplicate_guid
// instead of one node silently standing for both.
TEST(DbCsvFabric, ARepeatedGuidOfAnotherNodeIsKeptAsADuplicate) {
  std::string text = small_db("0x10,2,0x20,1\n");
  const std::string row = "0x30,\"h1 mlx5_0\",1,1,0x31,4129,713\n";
  text.insert(text.find("END_NODES"), row);  // the same CA again: one node
  EXPECT_TRUE(parse_fabric_text(text, "x.db_csv").duplicate_guids().empty());
  text.insert(text.find("END_NODES"), "0x20,\"h2 mlx5_0\",1,1,0x21,4129,713\n");  // sw2's GUID on a CA
  const Fabric f = parse_fabric_text(text, "x.db_csv");
  ASSERT_EQ(f.duplicate_guids().size(), 1u);
  EXPECT_EQ(f.duplicate_guids()[0].size(), 2u);
  EXPECT_EQ(f.size(), 4u);
  EXPECT_TRUE(f.node(*f.find_guid(0x20)).is_switch());  // its links stay the first's
}

void expect_error(const std::string& text, const std::string& message) {
  try {
    parse_fabric_text(text, "bad.db_csv");
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(DbCsvFabric, BadInputNamesFileAndLine) {
  // Line 16 is the first LINKS row.
  expect_error(small_db("0x10,1,0x99,1\n"), "bad.db_csv:16: LINKS names node 0x99, which NODES lacks");
  expect_error(small_db("0x10,3,0x30,1\n"), "bad.db_csv:16: port 3 of a node with 2 ports");
  expect_error(small_db("0x10,1,0x30,1\n0x10,1,0x20,1\n"),
               "bad.db_csv:17: a port linked twice: MF0;sw1:MQM9700/U1[1] already links to h1 mlx5_0[1]");
  expect_error("START_NODES\nNodeGUID\n0x1\nEND_NODES\n", "bad.db_csv:2: NODES has no column NodeDesc");
  std::string no_links = small_db("");
  no_links = no_links.substr(0, no_links.find("START_LINKS"));
  expect_error(no_links, "bad.db_csv: no LINKS section");
}

}  // namespace
