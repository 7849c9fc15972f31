// The `wiring` commands past their argument parsing (wiring/wiring_command.h): generate a
// design, derive the wiring list back from its netfile, name generic switches from the plan.
#include "wiring/wiring_command.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/file_io.h"
#include "wiring/wiring.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::wiring;

namespace {

class WiringRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    gen_.spec.tiers = 2;
    gen_.spec.radix = 8;
    gen_.spec.hosts = 4;
    gen_.spec.hcas_per_host = 1;
    gen_.spec.rate = {topo::Width::X4, topo::Speed::HDR};
    gen_.prefix = dir_ + "/design";
  }
  FatTreeGenOptions gen_;
  ibburn::testing::TempDir tmp_;
  std::string dir_;
};

TEST_F(WiringRun, GeneratedNetfileGivesBackTheGeneratedWiring) {
  std::ostringstream out;
  ASSERT_EQ(wiring_gen_command(gen_, out), 0);
  EXPECT_NE(out.str().find("wrote " + gen_.prefix + ".csv"), std::string::npos) << out.str();
  FromFabricOptions ff;
  ff.fabric.files = {gen_.prefix + ".net"};
  ff.fabric.node_name_map = gen_.prefix + ".node-name-map";
  ff.out = dir_ + "/derived.csv";
  ASSERT_EQ(wiring_from_fabric_command(ff, out), 0);
  EXPECT_EQ(load_wiring_csv(ff.out).cables.size(), load_wiring_csv(gen_.prefix + ".csv").cables.size());
}

TEST_F(WiringRun, PlanesGetOneNetfileEachThatGivesBackTheirPlane) {
  gen_.spec.hcas_per_host = 2;
  gen_.spec.planes = 2;
  std::ostringstream out;
  ASSERT_EQ(wiring_gen_command(gen_, out), 0);
  EXPECT_NE(out.str().find(gen_.prefix + ".plane2.net"), std::string::npos) << out.str();
  const Wiring all = load_wiring_csv(gen_.prefix + ".csv");
  for (int k = 1; k <= 2; ++k) {
    FromFabricOptions ff;
    ff.fabric.files = {gen_.prefix + ".plane" + std::to_string(k) + ".net"};
    ff.fabric.node_name_map = gen_.prefix + ".node-name-map";
    ff.out = dir_ + "/plane" + std::to_string(k) + ".csv";
    ASSERT_EQ(wiring_from_fabric_command(ff, out), 0);
    size_t planned = 0;
    for (const Cable& c : all.cables) planned += c.plane == k;
    EXPECT_EQ(load_wiring_csv(ff.out).cables.size(), planned);
  }
}

TEST_F(WiringRun, GenericSwitchesAreNamedFromThePlan) {
  gen_.generic_switch_descriptions = true;
  std::ostringstream out;
  ASSERT_EQ(wiring_gen_command(gen_, out), 0);
  NameSwitchesOptions n;
  n.fabric.files = {gen_.prefix + ".net"};
  n.wiring = gen_.prefix + ".csv";
  n.out = dir_ + "/inferred.map";
  EXPECT_EQ(wiring_name_switches_command(n, out), 0) << out.str();
  EXPECT_NE(read_file(n.out).find("leaf01"), std::string::npos) << read_file(n.out);
}

}  // namespace
