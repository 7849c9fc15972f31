#include "common/finding_catalogue.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/finding.h"

#include "tests/support/test_paths.h"

using namespace ibburn;

TEST(FindingCatalogue, EveryNameRoundTripsAndIsUnique) {
  std::set<std::string> names;
  for (const auto& row : finding_catalogue()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_TRUE(std::regex_match(row.name, std::regex("[a-z][a-z0-9_]*"))) << row.name;
    EXPECT_EQ(finding_kind_from_string(row.name), row.kind) << row.name;
    EXPECT_EQ(&info(row.kind), &row);
    nlohmann::json j = row.kind;
    EXPECT_EQ(j, row.name);
    EXPECT_EQ(j.get<FindingKind>(), row.kind);
  }
  EXPECT_EQ(finding_kind_from_string("no_such_kind"), std::nullopt);
}

TEST(FindingCatalogue, FindingOfAnUndeclaredKindIsRefusedNamingIt) {
  const auto j = nlohmann::json::parse(R"({"kind":"cosmic_ray","severity":"error","message":"","ports":[]})");
  try {
    finding_from_json(j);
    FAIL() << "an undeclared kind was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'cosmic_ray'"), std::string::npos) << e.what();
  }
}

// The burn summary tells a failed host check's findings as host_<kind>: each has its own row.
TEST(FindingCatalogue, EveryHostCheckKindHasItsPreflightTwin) {
  for (FindingKind k : {FindingKind::PcieDegraded, FindingKind::MemlockLow, FindingKind::NothingToCheck}) {
    EXPECT_EQ(to_string(preflight_kind(k)), "host_" + std::string(to_string(k)));
    EXPECT_NE(preflight_kind(k), k);
  }
  for (const auto& row : finding_catalogue()) {
    if (row.kind >= FindingKind::NothingToCheck && row.kind <= FindingKind::MemlockLow) {
      EXPECT_EQ(to_string(preflight_kind(row.kind)), "host_" + std::string(row.name));
    }
  }
  EXPECT_EQ(preflight_kind(FindingKind::Missing), FindingKind::Missing);
}

TEST(FindingCatalogue, WhatActs) {
  EXPECT_TRUE(info(FindingKind::Split).stops_job);
  EXPECT_FALSE(info(FindingKind::Missing).stops_job);
  EXPECT_FALSE(info(FindingKind::Systemic).drains);
  EXPECT_FALSE(info(FindingKind::NotExercised).drains);
  EXPECT_EQ(info(FindingKind::SuspectCable).acts_from, Severity::Error);
  EXPECT_EQ(info(FindingKind::Swapped).cable, CableService::Recable);
  EXPECT_EQ(info(FindingKind::LinkDown).cable, CableService::Replace);
  EXPECT_EQ(info(FindingKind::Extra).cable, CableService::None);
}

// docs/formats.md's table of kinds is the catalogue: one row per kind, with its severity,
// drain and cables.csv columns as the code has them, and no row the code lacks.
TEST(FindingCatalogue, DocsListEveryKindAsDeclared) {
  std::ifstream in(ibburn::testing::source_dir() + "/docs/formats.md");
  ASSERT_TRUE(in) << "docs/formats.md";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::regex row(
      R"(\n\| `([a-z0-9_]+)` \| (info|warning|error|critical) \| (yes|no|from error) \| (-|reseat|replace|recable) \| (yes|no) \|)");
  std::set<std::string> documented;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    documented.insert(name);
    auto kind = finding_kind_from_string(name);
    ASSERT_TRUE(kind) << "docs/formats.md lists " << name << ", which the catalogue does not declare";
    const auto& k = info(*kind);
    EXPECT_EQ((*it)[2], to_string(k.severity)) << name;
    const char* drains = !k.drains ? "no" : k.acts_from == Severity::Error ? "from error" : "yes";
    EXPECT_EQ((*it)[3], drains) << name;
    const char* cable = k.cable == CableService::Reseat    ? "reseat"
                        : k.cable == CableService::Replace ? "replace"
                        : k.cable == CableService::Recable ? "recable"
                                                           : "-";
    EXPECT_EQ((*it)[4], cable) << name;
    EXPECT_EQ((*it)[5], k.stops_job ? "yes" : "no") << name;
  }
  for (const auto& k : finding_catalogue())
    EXPECT_TRUE(documented.count(k.name)) << k.name << " is not in docs/formats.md";
}
