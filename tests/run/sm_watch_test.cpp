// The subnet manager going away mid-run: one warning the first time, none while a master
// answers (the same one or a standby that took over), none when there was none to lose; and
// the two SMPs' payloads decoded.
#include <gtest/gtest.h>

#include <infiniband/mad.h>

#include "run/sm_watch.h"

namespace ibburn::run {
namespace {

topo::SmProbe master(uint16_t lid, uint64_t guid) { return {topo::MasterSm{lid, guid, 3, 0}, ""}; }
topo::SmProbe gone(const std::string& why) { return {std::nullopt, why}; }

TEST(SmWatch, TheMasterStoppingIsOneWarningOnce) {
  SmWatch w(master(1, 0x2c90000000100));
  EXPECT_FALSE(w.check(master(1, 0x2c90000000100), 1));
  auto f = w.check(gone("SMInfo from LID 1: timeout"), 2);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FindingKind::SmLost);
  EXPECT_EQ(f->severity, Severity::Warning);
  EXPECT_EQ(f->details["stage"], 2);
  EXPECT_EQ(f->details["guid"], "0x0002c90000000100");
  EXPECT_NE(f->message.find("stopped answering during stage 2 (SMInfo from LID 1: timeout)"), std::string::npos)
      << f->message;
  EXPECT_FALSE(w.check(gone("SMInfo from LID 1: timeout"), 3));
}

TEST(SmWatch, AStandbyThatTookOverOrNoSmToBeginWithIsNoFinding) {
  SmWatch failover(master(1, 0xa));
  EXPECT_FALSE(failover.check(master(7, 0xb), 1));
  SmWatch none(gone("the local port names no subnet manager (MasterSMLID 0)"));
  EXPECT_FALSE(none.check(gone("timeout"), 1));
}

TEST(SmWatch, AnSmThatIsNoLongerMasterIsLost) {
  SmWatch w(master(1, 0xa));
  auto f = w.check({topo::MasterSm{1, 0xa, 2, 0}, ""}, 1);  // SMState 2: standby
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("SMState 2, not master"), std::string::npos) << f->message;
}

TEST(MasterSm, DecodesPortInfoAndSmInfo) {
  std::array<uint8_t, topo::kMadDataSize> pi{}, si{};
  mad_set_field(pi.data(), 0, IB_PORT_SMLID_F, 17);
  EXPECT_EQ(topo::master_sm_lid(pi), 17);
  mad_set_field64(si.data(), 0, IB_SMINFO_GUID_F, 0x2c90000000100);
  mad_set_field(si.data(), 0, IB_SMINFO_STATE_F, 3);
  mad_set_field(si.data(), 0, IB_SMINFO_PRIO_F, 5);
  const topo::MasterSm sm = topo::decode_sm_info(si, 17);
  EXPECT_EQ(sm.lid, 17);
  EXPECT_EQ(sm.guid, 0x2c90000000100u);
  EXPECT_TRUE(sm.master());
  EXPECT_EQ(sm.priority, 5);
}

}  // namespace
}  // namespace ibburn::run
