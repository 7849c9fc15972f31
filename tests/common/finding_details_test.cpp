// Typed finding details: the struct and the JSON on disk say the same, and details missing a
// field are refused naming the kind and the field.
#include "common/finding_details.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ibburn;
using ::testing::HasSubstr;

namespace {

Finding errors_under_load(const ErrorsUnderLoadDetails& d) {
  Finding f;
  f.kind = FindingKind::ErrorsUnderLoad;
  f.details = d;
  return f;
}

// What the message of the std::invalid_argument details_of throws says.
template <FindingKind K = FindingKind::ErrorsUnderLoad>
std::string refusal(const Finding& f) {
  try {
    details_of<K>(f);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(FindingDetails, ErrorsUnderLoadRoundTripsWithTheKeysOnDisk) {
  const ErrorsUnderLoadDetails d{.stage = 2,
                                 .rise = {{"SymbolErrorCounter", 50}, {"LinkDownedCounter", 1}},
                                 .bits_received = 1e12,
                                 .bits_sent = 2e12,
                                 .seconds = 600,
                                 .symbol_errors_per_bit = 5e-11};
  const Finding f = errors_under_load(d);
  EXPECT_EQ(f.details.dump(),
            R"({"bits_received":1000000000000.0,"bits_sent":2000000000000.0,"rise":{"LinkDownedCounter":1,)"
            R"("SymbolErrorCounter":50},"seconds":600.0,"stage":2,"symbol_errors_per_bit":5e-11})");
  EXPECT_EQ(details_of<FindingKind::ErrorsUnderLoad>(f), d);
  EXPECT_EQ(details_of<FindingKind::ErrorsUnderLoad>(finding_from_json(to_json(f))), d);
}

TEST(FindingDetails, ErrorsUnderLoadWithoutADataRateLeavesItOut) {
  const ErrorsUnderLoadDetails d{.stage = 1, .rise = {{"PortRcvErrors", 3}}};
  const Finding f = errors_under_load(d);
  EXPECT_FALSE(f.details.contains("symbol_errors_per_bit"));
  EXPECT_EQ(details_of<FindingKind::ErrorsUnderLoad>(f), d);
}

TEST(FindingDetails, AMissingOrMistypedFieldIsRefusedNamingIt) {
  for (const char* field : {"stage", "rise", "bits_received", "bits_sent", "seconds"}) {
    Finding f = errors_under_load({.stage = 1, .rise = {{"PortRcvErrors", 3}}});
    f.details.erase(field);
    EXPECT_EQ(refusal(f), std::string("errors_under_load details: field '") + field + "' missing");
  }
  Finding f = errors_under_load({.stage = 1, .rise = {{"PortRcvErrors", 3}}});
  f.details["stage"] = "one";
  EXPECT_EQ(refusal(f), "errors_under_load details: field 'stage' wrong type (string)");
  f = errors_under_load({.stage = 1, .rise = {{"PortRcvErrors", 3}}});
  f.details["rise"]["PortRcvErrors"] = -3;
  EXPECT_EQ(refusal(f), "errors_under_load details: field 'rise.PortRcvErrors' wrong type (number)");
}

TEST(FindingDetails, AFindingOfAnotherKindIsRefused) {
  Finding f = errors_under_load({.stage = 1, .rise = {{"PortRcvErrors", 3}}});
  f.kind = FindingKind::Degraded;
  EXPECT_THAT(refusal(f), HasSubstr("details of errors_under_load asked of a degraded finding"));
}

TEST(FindingDetails, UntestedRoundTripsWithTheKeysOnDisk) {
  const UntestedDetails d{{"gpu002 mlx5_0[1] - leaf1[2]"}, {"spine3"}, 1, 1, "slurm"};
  Finding f;
  f.kind = FindingKind::Untested;
  f.details = d;
  EXPECT_EQ(f.details.dump(),
            R"({"allocation":"slurm","cables":["gpu002 mlx5_0[1] - leaf1[2]"],"hosts_in_job":1,"hosts_outside":1,)"
            R"("switches":["spine3"]})");
  EXPECT_EQ(details_of<FindingKind::Untested>(finding_from_json(to_json(f))), d);
  f.details.erase("switches");
  EXPECT_EQ(refusal<FindingKind::Untested>(f), "untested details: field 'switches' missing");
}

// A systemic finding carries its members whole: a reader gets them back as findings, and a
// member that is not a finding is refused naming its place.
TEST(FindingDetails, SystemicCarriesItsScopeAndItsMembersWhole) {
  Finding member;
  member.kind = FindingKind::Degraded;
  member.message = "4xHDR, the plan says 4xNDR";
  member.ports = {{"leaf1", 5}, {"spine1", 1}};
  const SystemicDetails d{
      FindingKind::Degraded, {ScopeType::Tier, "leaf-spine", 64}, 40, {{"active", "4xHDR"}}, {member}};
  Finding f;
  f.kind = FindingKind::Systemic;
  f.details = d;
  EXPECT_EQ(f.details["scope"].dump(), R"({"cables":64,"name":"leaf-spine","type":"tier"})");
  EXPECT_EQ(f.details["of_kind"], "degraded");
  const SystemicDetails back = details_of<FindingKind::Systemic>(finding_from_json(to_json(f)));
  EXPECT_EQ(back.of_kind, FindingKind::Degraded);
  EXPECT_EQ(back.scope.type, ScopeType::Tier);
  EXPECT_EQ(back.scope.name, "leaf-spine");
  EXPECT_EQ(back.scope.cables, 64u);
  EXPECT_EQ(back.count, 40u);
  EXPECT_EQ(back.evidence, d.evidence);
  ASSERT_EQ(back.cables.size(), 1u);
  EXPECT_EQ(back.cables[0].message, member.message);
  EXPECT_EQ(back.cables[0].ports, member.ports);

  f.details["scope"]["type"] = "row";
  EXPECT_EQ(refusal<FindingKind::Systemic>(f), "systemic details: field 'scope.type' names no scope (row)");
  f.details = d;
  f.details["cables"][0].erase("kind");
  EXPECT_THAT(refusal<FindingKind::Systemic>(f), HasSubstr("systemic details: field 'cables[0]' "));
}

TEST(FindingDetails, DegradedSaysItsPlanOrWhatBothEndsSupport) {
  Finding f;
  f.kind = FindingKind::Degraded;
  f.details = DegradedDetails{"4xHDR", "4xNDR", std::nullopt};
  EXPECT_EQ(f.details.dump(), R"({"active":"4xHDR","planned":"4xNDR"})");
  EXPECT_EQ(details_of<FindingKind::Degraded>(finding_from_json(to_json(f))),
            (DegradedDetails{"4xHDR", "4xNDR", std::nullopt}));
  f.details = DegradedDetails{"2xNDR", std::nullopt, "4xNDR"};
  EXPECT_EQ(f.details.dump(), R"({"active":"2xNDR","supported":"4xNDR"})");
  EXPECT_EQ(details_of<FindingKind::Degraded>(f).supported, "4xNDR");
  f.details.erase("supported");
  EXPECT_EQ(refusal<FindingKind::Degraded>(f), "degraded details: needs one of 'planned' and 'supported'");
}
