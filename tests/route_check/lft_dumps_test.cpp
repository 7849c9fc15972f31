// The forwarding-table dumps sites have: ibdiagnet2.fdbs / opensm.fdbs blocks and
// opensm-lfts.dump, in the layouts opensm's osm_dump.c and ibdiagnet write them.
#include <gtest/gtest.h>

#include "common/error.h"
#include "route_check/lft_dumps.h"

namespace ibburn::route_check {
namespace {

using routing::ForwardingTables;

TEST(LftDumps, FdbsBlocksGiveEachSwitchItsPortsAndUnreachableLidsNoRoute) {
  const auto t = parse_lft_text(R"(osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c9030068ec10
LID    : Port : Hops : Optimal
0x0001 : UNREACHABLE
0x0002 : 003  : 00   : yes
0x0005 : 017  : 00   : yes

dump_ucast_routes: Switch 0x0002c9030068ec20
LID    : Port : Hops : Optimal
0x0002 : 001  : 02   : yes
No 3 hop path possible via port 5!
)",
                                "x.fdbs");
  ASSERT_EQ(t.by_switch_guid.size(), 2u);
  const auto& a = t.by_switch_guid.at(0x0002c9030068ec10);
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a[1], ForwardingTables::kNoRoute);
  EXPECT_EQ(a[2], 3);
  EXPECT_EQ(a[3], ForwardingTables::kNoRoute);
  EXPECT_EQ(a[5], 17);
  EXPECT_EQ(t.by_switch_guid.at(0x0002c9030068ec20)[2], 1);
}

TEST(LftDumps, OpensmLftsDumpIsReadByItsSwitchHeaders) {
  const auto t = parse_lft_text(R"(Unicast lids [0x0-0x8] of switch Lid 1 guid 0x0000000000200000 ('S1'):
0x0001 000 : (Switch portguid 0x0000000000200000: 'S1')
0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'H1')
8 lids dumped
)",
                                "opensm-lfts.dump");
  const auto& s1 = t.by_switch_guid.at(0x200000);
  EXPECT_EQ(s1[1], 0);
  EXPECT_EQ(s1[2], 1);
}

TEST(LftDumps, ABadLineIsRefusedWithItsNumber) {
  try {
    parse_lft_text("dump_ucast_routes: Switch 0x1\n0x0002 : 003 : 00 : yes\n0x0003 : port3\n", "bad.fdbs");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.reason().find("not a port number"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_lft_text("0x0002 : 003\n", "x"), InputError);  // before any header
  EXPECT_THROW(parse_lft_text("hello\n", "x"), InputError);         // not a dump at all
  EXPECT_THROW(parse_lft_text("LID : Port\n", "x"), InputError);    // no switch in it
}

}  // namespace
}  // namespace ibburn::route_check
