// Which file is which, and how check_health names nodes and joins the sources, on plain text.
#include "health/health_sources.h"

#include <gtest/gtest.h>

#include "topo/node_name_map.h"

using namespace ibburn;
using namespace ibburn::health;

namespace {

TEST(HealthSources, KindFromNameOrFirstLine) {
  EXPECT_EQ(source_kind("d/ibdiagnet2.db_csv", ""), SourceKind::DbCsv);
  EXPECT_EQ(source_kind("d/ibdiagnet2.cables", ""), SourceKind::Cables);
  EXPECT_EQ(source_kind("d/port1.json", "{\"result\": {}}"), SourceKind::Mlxlink);
  EXPECT_EQ(source_kind("d/h.json", "{\"findings\": []}"), SourceKind::None);  // ibburn's own JSON
  EXPECT_EQ(source_kind("d/sw1.out", "=====\nQuantum Mellanox Technologies\n"), SourceKind::Ibswinfo);
  EXPECT_EQ(source_kind("d/ibdiagnet2.pm", "# This database file"), SourceKind::None);
}

// Four switches of one board: a managed one (its host name), one with a unique description,
// two that share one (named by GUID, or by the node-name-map); the named one is behind.
const char* const kFabric =
    "START_NODES\n"
    "NodeDesc,NodeGUID,NodeType\n"
    "\"MF0;spine1:MQM9700/U1\",0x1,2\n"
    "\"lab switch\",0x2,2\n"
    "\"Quantum-2 Mellanox Technologies\",0x3,2\n"
    "\"Quantum-2 Mellanox Technologies\",0x4,2\n"
    "END_NODES\n"
    "START_NODES_INFO\n"
    "NodeGUID,HWInfo_DeviceID,FWInfo_PSID,FWInfo_Major,FWInfo_Minor,FWInfo_SubMinor,"
    "FWInfo_Extended_Major,FWInfo_Extended_Minor,FWInfo_Extended_SubMinor\n"
    "0x1,0xd2f2,MT_9,0,0,0,31,2012,1024\n"
    "0x2,0xd2f2,MT_9,0,0,0,31,2012,1024\n"
    "0x3,0xd2f2,MT_9,0,0,0,31,2012,1024\n"
    "0x4,0xd2f2,MT_9,0,0,0,31,2012,1068\n"
    "END_NODES_INFO\n";

TEST(HealthSources, NodesAreNamedByMapThenDescriptionThenGuid) {
  HealthSources s;
  add_source(s, SourceKind::DbCsv, "ibdiagnet2.db_csv", kFabric);
  add_source(s, SourceKind::Cables, "ibdiagnet2.cables",
             "Port=3 Lid=0x1 GUID=0x4 Port Name=x\nVendor: FS\nPN: P\nSN: S\nTemperature: 81C\n"
             "AlarmTemperatureHighThresh: 80C\n");
  EXPECT_EQ(s.files, 2u);
  std::vector<Finding> f = check_health(s, {});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, FindingKind::FirmwareMixed);
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{"0x0000000000000003", 0}, {"lab switch", 0}, {"spine1", 0}}));
  EXPECT_EQ(f[1].kind, FindingKind::ModuleHot);
  EXPECT_EQ(f[1].ports, (std::vector<PortRef>{{"0x0000000000000004", 3}}));

  topo::NodeNameMap map = topo::NodeNameMap::parse("0x4 \"leaf9\"\n0x1 \"spine-a\"\n", "map");
  HealthJudgement named;
  named.names = &map;
  f = check_health(s, named);
  EXPECT_EQ(f[0].ports[2], (PortRef{"spine-a", 0}));
  EXPECT_EQ(f[1].ports, (std::vector<PortRef>{{"leaf9", 3}}));
}

TEST(HealthSources, ASwitchInBothIbdiagnetAndIbswinfoIsJudgedOnceButItsFanStillCounts) {
  HealthSources s;
  add_source(s, SourceKind::DbCsv, "ibdiagnet2.db_csv", kFabric);
  add_source(s, SourceKind::Ibswinfo, "sw3.out",
             "=====\nQuantum-2\n=====\npart number | MQM9790\nPSID | MT_9\nGUID | 0x3\n"
             "firmware version | 31.2012.1068\ntemperature (C) | 50\nfan status | ERROR\n");
  std::vector<Finding> f = check_health(s, {});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, FindingKind::FirmwareMixed);
  EXPECT_EQ(f[0].details["versions"][0]["count"], 3);  // ibdiagnet's 1024, not ibswinfo's 1068
  EXPECT_EQ(f[1].kind, FindingKind::SwitchFan);
  EXPECT_EQ(f[1].ports, (std::vector<PortRef>{{"0x0000000000000003", 0}}));
}

}  // namespace
