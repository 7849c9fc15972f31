// An ibdiagnet capture's PM_INFO as a counters snapshot: the real capture (corpus row 18, counts
// taken with awk from the file) judged by the default thresholds and as a baseline, a variant
// with one port's errors raised, then plain text for the column choice and bad input.
#include "counters/pm_info_snapshot.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "counters/counter_check.h"
#include "counters/counter_delta.h"
#include "counters/thresholds.h"
#include "tests/support/corpus.h"
#include "topo/db_csv_fabric.h"

using namespace ibburn;
using namespace ibburn::counters;

namespace {

const std::string kCapture = "ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili";

size_t count_kind(const std::vector<Finding>& all, const std::string& kind) {
  size_t n = 0;
  for (const Finding& f : all) n += to_string(f.kind) == kind;
  return n;
}

using PmInfoCapture = ibburn::testing::CorpusTest;

TEST_F(PmInfoCapture, EveryPortThatAnsweredJudgedByTheThresholds) {
  const Snapshot s = load_saved_sweep(ibburn::testing::corpus_path(kCapture), "");
  ASSERT_EQ(s.ports.size(), 542u);
  EXPECT_EQ(s.time_ms, 1743464598000);  // 2025-03-31 23:43:18 UTC
  const PortSample& first = s.ports.front();
  EXPECT_EQ(first.node, "MF0;ib-switch-sequoia:MQM9700/U1");
  EXPECT_EQ(first.node_type, topo::NodeType::Switch);
  EXPECT_EQ(first.port, 1);
  EXPECT_EQ(first.lid, 180);
  ASSERT_TRUE(first.peer);
  EXPECT_EQ(first.peer->port, 63);
  // 64-bit columns: PortXmitData is 4294967295 in its 32-bit column, not saturated here.
  EXPECT_EQ(first.counters.get(Counter::PortXmitData), 299195507523u);
  EXPECT_EQ(first.counters.bits[static_cast<size_t>(Counter::PortXmitData)], 64);
  EXPECT_EQ(first.counters.get(Counter::PortXmitWait), 9463628588u);
  const std::vector<Finding> findings = check_snapshot(s, Thresholds::defaults());
  // awk over PM_INFO's *Ext columns against ibqueryerrors' defaults: 528 ports over one (72 of
  // them PortXmitDiscards > 100, the rest PortXmitWait > 1000).
  EXPECT_EQ(count_kind(findings, "errors"), 528u);
  EXPECT_EQ(count_kind(findings, "saturated"), 0u);
  EXPECT_EQ(findings.size(), 528u);
}

TEST_F(PmInfoCapture, AsBaselineOnlyTheRiseIsJudged) {
  const std::string path = ibburn::testing::corpus_path(kCapture + "/ibdiagnet2.db_csv");
  const Snapshot before = load_saved_sweep(path, "");
  EXPECT_TRUE(check_deltas(before, compute_deltas(before, before), Thresholds::defaults()).empty());
  // The same capture with one HCA port's symbol errors up by 50: that port alone.
  Snapshot after = before;
  PortSample& hca = after.ports.back();
  hca.counters.set(Counter::SymbolErrorCounter, hca.counters.get(Counter::SymbolErrorCounter) + 50, 64);
  const std::vector<Finding> f = check_deltas(after, compute_deltas(before, after), Thresholds::defaults());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::Errors);
  EXPECT_NE(f[0].message.find("SymbolErrorCounter"), std::string::npos) << f[0].message;
  EXPECT_EQ(f[0].ports.front().node, hca.node);
}

const char* const kFabric =
    "START_RUN_INFO\nDate\n\"2025-03-31 23:43:18 UTC +0000\"\nEND_RUN_INFO\n"
    "START_NODES\nNodeGUID,NodeDesc,NumPorts,NodeType,SystemImageGUID,DeviceID,VendorID\n"
    "0x10,sw1,2,2,0x10,54002,713\n0x30,h1 mlx5_0,1,1,0x30,4129,713\nEND_NODES\n"
    "START_PORTS\nNodeGuid,PortGuid,PortNum,LID,LMC,PortState,PortPhyState,LinkWidthActv,LinkWidthSup,"
    "LinkWidthEn,LinkSpeedActv,LinkSpeedSup,LinkSpeedEn\n"
    "0x10,0x10,0,7,0,4,5,2,2,2,1,1,1\n0x10,0x10,1,0,0,4,5,2,2,2,2052,2052,2052\n"
    "0x30,0x31,1,9,0,4,5,2,2,2,2052,2052,2052\nEND_PORTS\n"
    "START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0x10,1,0x30,1\nEND_LINKS\n";

Snapshot from_text(const std::string& pm_info) {
  const topo::DbCsv db = topo::parse_db_csv(kFabric + pm_info, "x.db_csv");
  return snapshot_from_pm_info(db, topo::fabric_from_db_csv(db));
}

TEST(PmInfo, WideColumnFirstThenTheNarrowOneAtItsWidthAndNaNotRead) {
  Snapshot s = from_text(
      "START_PM_INFO\nNodeGUID,PortGUID,PortNumber,SymbolErrorCounter,SymbolErrorCounterExt,PortXmitData,"
      "LinkDownedCounter\n"
      "0x10,0x10,1,65535,70000,12,3\n0x30,0x31,1,4,N/A,N/A,2\nEND_PM_INFO\n");
  ASSERT_EQ(s.ports.size(), 2u);
  EXPECT_EQ(s.ports[0].counters.get(Counter::SymbolErrorCounter), 70000u);
  EXPECT_EQ(s.ports[0].counters.bits[static_cast<size_t>(Counter::SymbolErrorCounter)], 64);
  EXPECT_EQ(s.ports[0].counters.bits[static_cast<size_t>(Counter::PortXmitData)], 32);
  EXPECT_EQ(s.ports[0].lid, 7);
  EXPECT_EQ(s.ports[1].counters.get(Counter::SymbolErrorCounter), 4u);
  EXPECT_EQ(s.ports[1].counters.bits[static_cast<size_t>(Counter::SymbolErrorCounter)], 16);
  EXPECT_FALSE(s.ports[1].counters.has(Counter::PortXmitData));
  EXPECT_TRUE(s.ports[1].counters.has(Counter::LinkDownedCounter));
  EXPECT_EQ(s.ports[1].port_guid, 0x31u);
  EXPECT_EQ(s.ports[1].peer->node, "sw1");
  EXPECT_EQ(s.time_ms, 1743464598000);
}

void expect_error(const std::string& pm_info, const std::string& message) {
  try {
    from_text(pm_info);
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(PmInfo, BadInputNamesTheRow) {
  // kFabric is 19 lines: PM_INFO's first row is line 22.
  expect_error("", "x.db_csv: no PM_INFO section (ibdiagnet ran without its counters)");
  expect_error("START_PM_INFO\nNodeGUID,PortNumber,SymbolErrorCounter\n0x99,1,0\nEND_PM_INFO\n",
               "x.db_csv:22: PM_INFO names node 0x99, which NODES lacks");
  expect_error("START_PM_INFO\nNodeGUID,PortNumber,SymbolErrorCounter\n0x10,5,0\nEND_PM_INFO\n",
               "x.db_csv:22: PM_INFO names port 5 of sw1, which has no such port");
  expect_error("START_PM_INFO\nNodeGUID,PortNumber,SymbolErrorCounter\n0x10,1,lots\nEND_PM_INFO\n",
               "x.db_csv:22: SymbolErrorCounter 'lots' is not a number");
  expect_error("START_PM_INFO\nNodeGUID,PortNumber,Other\n0x10,1,0\nEND_PM_INFO\n",
               "x.db_csv:21: PM_INFO has no column SymbolErrorCounter");
}

}  // namespace
