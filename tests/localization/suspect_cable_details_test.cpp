// suspect_cable's typed details: both kinds of evidence keep their keys on disk (the flows'
// as summary.json's `suspects` hold them), read back to the same struct, and details that
// hold neither are refused naming the field.
#include "localization/suspect_cable_details.h"

#include <gtest/gtest.h>

using namespace ibburn;
using localization::CounterEvidence;
using localization::SuspectCableDetails;

namespace {

const burn::SuspectRecord kFlows{"spine01[3] -> core02[7]",  "spine01[3]", "core02[7]", 0.5, 12, 30,
                                 {"spine01[4] -> core02[8]"}};

const CounterEvidence kCounters{"spine01[3] -> core02[7]",
                                "spine01[3]",
                                "core02[7]",
                                2,
                                {1, 2},
                                {"spine01[3]", "spine01[4]", "spine01[5]"},
                                1e9,
                                4e9,
                                -3.5,
                                0.9,
                                8000,
                                100,
                                4.2};

Finding suspect(const SuspectCableDetails& d) {
  Finding f;
  f.kind = FindingKind::SuspectCable;
  f.details = d;
  return f;
}

std::string refusal(const Finding& f) {
  try {
    details_of<FindingKind::SuspectCable>(f);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SuspectCableDetails, FlowEvidenceIsTheSuspectRecordAsSummaryJsonHoldsIt) {
  const Finding f = suspect({.flows = kFlows});
  EXPECT_EQ(f.details, burn::to_json(kFlows));
  const SuspectCableDetails d = details_of<FindingKind::SuspectCable>(finding_from_json(to_json(f)));
  EXPECT_EQ(d, SuspectCableDetails{.flows = kFlows});
  EXPECT_EQ(d.tied_with(), kFlows.tied_with);
}

TEST(SuspectCableDetails, CounterEvidenceSaysItsSourceAndLeavesOutWaitsNotRead) {
  Finding f = suspect({.counters = kCounters});
  EXPECT_EQ(f.details["source"], "port counters");
  EXPECT_EQ(f.details["stages"], nlohmann::json({1, 2}));
  EXPECT_EQ(f.details["xmit_wait"], 8000.0);
  EXPECT_EQ(details_of<FindingKind::SuspectCable>(f), SuspectCableDetails{.counters = kCounters});
  EXPECT_TRUE(details_of<FindingKind::SuspectCable>(f).tied_with().empty());

  CounterEvidence no_waits = kCounters;
  no_waits.xmit_wait = no_waits.group_median_xmit_wait = no_waits.z_wait = std::nullopt;
  f = suspect({.counters = no_waits});
  EXPECT_FALSE(f.details.contains("xmit_wait"));
  EXPECT_FALSE(f.details.contains("z_wait"));
  EXPECT_EQ(details_of<FindingKind::SuspectCable>(f).counters, no_waits);
}

TEST(SuspectCableDetails, CorroboratingErrorsRideAlongWithEitherEvidence) {
  const ErrorsUnderLoadDetails rose{.stage = 2, .rise = {{"SymbolErrorCounter", 50}}};
  for (SuspectCableDetails d : {SuspectCableDetails{.flows = kFlows}, SuspectCableDetails{.counters = kCounters}}) {
    d.errors_under_load = rose;
    const Finding f = suspect(d);
    EXPECT_EQ(f.details["errors_under_load"], nlohmann::json(rose));
    EXPECT_EQ(details_of<FindingKind::SuspectCable>(f), d);
  }
}

TEST(SuspectCableDetails, DetailsOfNeitherEvidenceAreRefusedNamingTheField) {
  Finding f = suspect({.flows = kFlows});
  f.details.erase("healthy_flows");
  EXPECT_EQ(refusal(f), "suspect_cable details: field 'healthy_flows' missing");

  f = suspect({.counters = kCounters});
  f.details.erase("group");
  EXPECT_EQ(refusal(f), "suspect_cable details: field 'group' missing");

  f = suspect({.counters = kCounters});
  f.details["source"] = "guesswork";
  EXPECT_EQ(refusal(f), "suspect_cable details: field 'source' names no evidence (guesswork)");

  f = suspect({.flows = kFlows, .errors_under_load = ErrorsUnderLoadDetails{.stage = 1}});
  f.details["errors_under_load"].erase("seconds");
  EXPECT_EQ(refusal(f), "suspect_cable details: field 'errors_under_load.seconds' missing");
}
