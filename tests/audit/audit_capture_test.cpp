// The audit over a real ibdiagnet capture (corpus row 18: 9 MQM9700/Quantum-2 switches and 263
// ConnectX-7, IBDIAGNET 2.10.0): its PORTS rows hold M_Key 0 with protect bits 0 everywhere,
// its SM_INFO a master on a switch with SM_Key 0x1 (opensm's default), its PKEY tables the
// default partition only. ibsim models neither key; this capture stands in for them.
#include "audit/audit_capture.h"

#include <gtest/gtest.h>

#include "common/file_io.h"
#include "topo/db_csv_fabric.h"
#include "tests/support/corpus.h"

using namespace ibburn;
using namespace ibburn::audit;

namespace {

const char* const kCapture = "ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili/ibdiagnet2.db_csv";

std::vector<Finding> of_kind(const std::vector<Finding>& all, FindingKind k) {
  std::vector<Finding> out;
  for (const auto& f : all)
    if (f.kind == k) out.push_back(f);
  return out;
}

}  // namespace

TEST(AuditCapture, ARealCapturesKeysSmsAndPartitions) {
  if (const std::string why = ibburn::testing::corpus_missing(); !why.empty()) GTEST_SKIP() << why;
  const std::string path = ibburn::testing::corpus_path(kCapture);
  const topo::DbCsv db = topo::parse_db_csv(read_file(path), path);
  const topo::Fabric fabric = topo::fabric_from_db_csv(db);
  const AuditReads reads = audit_reads_from_capture(db, fabric);
  ASSERT_GT(reads.ports.size(), 263u);  // every HCA port, and the switches' cabled ports and port 0
  ASSERT_EQ(reads.sms.size(), 1u);
  EXPECT_EQ(reads.sms[0].state, 3);
  EXPECT_EQ(reads.sms[0].priority, 12);
  EXPECT_EQ(reads.sms[0].sm_key, kOpensmDefaultSmKey);

  AuditPolicy policy;
  policy.require_mkey = true;
  policy.mtu = 4096;
  const std::vector<Finding> findings = audit::audit(reads.ports, reads.sms, policy);
  const auto mkeys = of_kind(findings, FindingKind::MkeyUnprotected);
  ASSERT_EQ(mkeys.size(), 2u) << "the 9 switches are one kind (0xd2f2, two descriptions), then the HCAs";
  EXPECT_NE(mkeys[0].message.find("on 9 of 9 device 0xd2f2 switches"), std::string::npos) << mkeys[0].message;
  EXPECT_NE(mkeys[1].message.find("on 263 of 263 HCA ports"), std::string::npos) << mkeys[1].message;
  for (const auto& f : mkeys) EXPECT_EQ(f.severity, Severity::Error) << f.message;
  const auto key = of_kind(findings, FindingKind::SmDefaultKey);
  ASSERT_EQ(key.size(), 1u);
  EXPECT_NE(key[0].message.find("MF0;ib-switch-sequoia:MQM9700/U1"), std::string::npos) << key[0].message;
  EXPECT_TRUE(of_kind(findings, FindingKind::MtuLow).empty()) << "every link runs 4096";
  EXPECT_TRUE(of_kind(findings, FindingKind::SmMasters).empty());
  // No partitions file: the P_Key tables are not judged.
  EXPECT_TRUE(of_kind(findings, FindingKind::PkeyMissing).empty());
}
