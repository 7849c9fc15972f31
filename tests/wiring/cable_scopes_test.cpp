// The scopes of every cable of the field notes' design, read from its plan and from its
// fabric: what "most of a rail / a switch / a tier" is counted against.
#include "wiring/cable_scopes.h"

#include <gtest/gtest.h>

#include <map>

#include "topo/fabric_io.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::wiring {
namespace {

std::map<std::string, size_t> sizes(const CableScopes& s) {
  std::map<std::string, size_t> out;
  for (const auto& scope : s.scopes()) out[std::string(to_string(scope.type)) + " " + scope.name] = scope.cables;
  return out;
}

void expect_field_notes_scopes(const CableScopes& s) {
  EXPECT_EQ(s.cable_count(), 12280u);
  auto n = sizes(s);
  EXPECT_EQ(n["fabric "], 12280u);
  EXPECT_EQ(n["tier HCA-leaf"], 4088u);
  EXPECT_EQ(n["tier leaf-spine"], 4096u);
  EXPECT_EQ(n["tier spine-core"], 4096u);
  EXPECT_EQ(n["rail mlx5_0"], 511u);
  EXPECT_EQ(n["rail mlx5_3"], 511u);
  EXPECT_EQ(n.count("rail mlx5_8"), 0u);
  EXPECT_EQ(n["pod pod1"], 3 * 512u);  // its HCA, leaf-spine and spine-core cables
  EXPECT_EQ(n["switch pod1-leaf01"], 64u);
  EXPECT_EQ(n["switch core01"], 64u);
  // Both ends of a cable find it.
  const int64_t c = s.cable_at({"host001 mlx5_3", 1});
  ASSERT_GE(c, 0);
  size_t rails = 0;
  for (uint32_t i : s.scopes_of(static_cast<uint32_t>(c))) rails += s.scopes()[i].type == ScopeType::Rail;
  EXPECT_EQ(rails, 1u);
  EXPECT_EQ(s.cable_at({"host001 mlx5_3", 2}), -1);
}

TEST(CableScopes, FromTheFieldNotesPlan) {
  FatTreeDesign d = generate_fat_tree(*fat_tree_preset("field-notes"));
  expect_field_notes_scopes(cable_scopes(d.wiring));
}

TEST(CableScopes, FromTheFieldNotesFabric) {
  FatTreeDesign d = generate_fat_tree(*fat_tree_preset("field-notes"));
  topo::Fabric f = topo::parse_fabric_text(to_ibsim_netfile(d), "design.net");
  expect_field_notes_scopes(cable_scopes(f));
}

}  // namespace
}  // namespace ibburn::wiring
