// The physical layer: the real net_dump_ext (corpus row 20: FEC modes, every BER empty) as it
// is, then variants made from it in memory with the db_csv's LINKS for the cable ends (one
// high-BER cable read from both ends, every port's raw BER high), then plain text.
#include "health/ber_check.h"

#include <gtest/gtest.h>

#include "capture.h"
#include "common/error.h"
#include "health/health_sources.h"
#include "health/net_dump_ext.h"

using namespace ibburn;
using namespace ibburn::health;

namespace {

using BerCapture = ibburn::testing::CorpusTest;

HealthSources capture() {
  HealthSources s;
  for (const char* f : {"ibdiagnet2.db_csv", "ibdiagnet2.net_dump_ext"})
    add_source(s, source_kind(f, ""), f, ibburn::health::testing::read_capture(f));
  return s;
}

TEST_F(BerCapture, TheRealCaptureHasFecModesAndNoBer) {
  const HealthSources s = capture();
  // grep -c '^CA \|^SW ': 841 port rows; cut -d: -f11 | sort | uniq -c for the modes.
  ASSERT_EQ(s.phy.size(), 841u);
  size_t kp4 = 0, plr = 0, none = 0;
  for (const PortPhy& p : s.phy) {
    kp4 += p.fec == "RS_FEC_544_514";
    plr += p.fec == "MLNX_RS_271_257_PLR";
    none += p.fec.empty();
    EXPECT_FALSE(p.raw_ber || p.effective_ber || p.symbol_ber) << "line " << p.line;
  }
  EXPECT_EQ(kp4, 312u);
  EXPECT_EQ(plr, 198u);
  EXPECT_EQ(none, 331u);
  EXPECT_EQ(s.phy[1].guid, 0xb0cf0e0300e5b940u);  // line 17: SW 1/1/1, port 1
  EXPECT_EQ(s.phy[1].port, 1);
  EXPECT_TRUE(check_ber(health_inputs(s, nullptr).ber).empty());
}

TEST_F(BerCapture, OneCableHighFromBothEndsIsOneFinding) {
  HealthSources s = capture();
  HealthInputs in = health_inputs(s, nullptr);
  // The first port whose peer LINKS names, and that peer's own row.
  size_t a = 0;
  while (a < in.ber.size() && !in.ber[a].peer) ++a;
  ASSERT_LT(a, in.ber.size());
  size_t b = 0;
  while (b < in.ber.size() && !(in.ber[b].port == *in.ber[a].peer)) ++b;
  ASSERT_LT(b, in.ber.size());
  in.ber[a].effective_ber = 3e-11;
  in.ber[b].raw_ber = 5e-4;
  const std::vector<Finding> f = check_ber(in.ber);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::BerHigh);
  EXPECT_EQ(f[0].severity, Severity::Error);
  ASSERT_EQ(f[0].ports.size(), 2u);
  EXPECT_NE(f[0].message.find("effective BER 3e-11 (over 1e-12)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("raw BER 0.0005 (over 0.00024)"), std::string::npos) << f[0].message;
  EXPECT_EQ(f[0].details["ends"].size(), 2u);
}

TEST_F(BerCapture, EveryPortHighIsOneCauseNotEachCable) {
  HealthSources s = capture();
  for (PortPhy& p : s.phy) p.raw_ber = 1e-3;
  const std::vector<Finding> f = check_ber(health_inputs(s, nullptr).ber);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::PortsBerHigh);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_EQ(f[0].details["count"], 841);
  EXPECT_EQ(f[0].message,
            "841 of 841 ports with a BER reading over their limits: one cause (a cable batch, the FEC mode, firmware), "
            "not each cable");
}

TEST(Ber, AloneEndWithoutPeerAndReadingsUnderTheLimits) {
  PortBer quiet{{"sw", 1}, std::nullopt, "RS_FEC_544_514", 1e-6, 1e-15, std::nullopt};
  PortBer raw{{"sw", 2}, std::nullopt, "", 3e-4, std::nullopt, std::nullopt};
  const std::vector<Finding> f = check_ber({quiet, raw});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_EQ(f[0].ports, (std::vector<PortRef>{{"sw", 2}}));
  EXPECT_EQ(f[0].message, "sw port 2: raw BER 0.0003 (over 0.00024)");
}

const char* const kHeader =
    "# comment\n"
    "Ty : #    : #IB : GUID               : LID : Sta : FEC mode       : Raw BER : Effective BER : Symbol BER : Node "
    "Desc\n";

TEST(NetDumpExt, ColumnsByNameDescriptionWithColonsAndBadInput) {
  NetDumpExt d = parse_net_dump_ext(std::string(kHeader) +
                                        "SW : 1/1 : 3   : 0x10 : 5 : ACT : RS_FEC_544_514 : 1e-5 : N/A : : "
                                        "\"MF0;sw:MQM9700/U1\"\n",
                                    "n");
  ASSERT_EQ(d.ports.size(), 1u);
  EXPECT_EQ(d.ports[0].guid, 0x10u);
  EXPECT_EQ(d.ports[0].port, 3);
  EXPECT_EQ(d.ports[0].fec, "RS_FEC_544_514");
  EXPECT_EQ(d.ports[0].raw_ber, 1e-5);
  EXPECT_FALSE(d.ports[0].effective_ber);
  EXPECT_EQ(d.ports[0].line, 3);
  auto error = [](const std::string& text) {
    try {
      parse_net_dump_ext(text, "n");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(std::string(kHeader) + "SW : 1 : x : 0x10 : 5 : ACT : : : : : d\n"),
            "n:3: expected a GUID and a port number");
  EXPECT_EQ(error(std::string(kHeader) + "SW : 1 : 1 : 0x10 : 5 : ACT : : lots : : : d\n"),
            "n:3: Raw BER 'lots' is not a number");
  EXPECT_EQ(error(std::string(kHeader) + "SW : 1 : 1\n"), "n:3: row has 3 fields, its header 11");
  EXPECT_EQ(error("# nothing\n"), "n: no header row (`Ty : # : #IB : GUID ...`)");
}

}  // namespace
