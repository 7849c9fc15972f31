// `plan` and `burn` past their argument parsing (plan/plan_command.h, plan/burn_command.h), on a
// fat tree saved as a fabric file with adaptive routing: what they print, write and return.
#include "plan/plan_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"
#include "tests/routing/fat_tree_fixture.h"
#include "plan/burn_command.h"
#include "topo/fabric_io.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::plan;
using namespace ibburn::routing;

namespace {

class PlanRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    auto t = fixture::make_fat_tree(2, 2, 2);
    const std::string fabric = dir_ + "/fabric.json";
    topo::save_fabric_file(t.fabric, fabric);
    routes_.fabric.files = {fabric};
    routes_.routing = "adaptive";
  }
  RouteOptions routes_;
  ibburn::testing::TempDir tmp_;
  std::string dir_;
};

TEST_F(PlanRun, PlanCoversEveryCableAndWritesThePlan) {
  PlanCommandOptions o;
  o.routes = routes_;
  o.out = dir_ + "/plan.json";
  o.proof = dir_ + "/proof.json";
  std::ostringstream out;
  EXPECT_EQ(plan_command(o, out), 0) << out.str();
  EXPECT_EQ(out.str().rfind("plan: 4 endpoints, 16 cable directions, ", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("covered 16/16"), std::string::npos) << out.str();
  EXPECT_FALSE(nlohmann::json::parse(read_file(o.out)).at("stages").empty());
  EXPECT_TRUE(std::filesystem::exists(o.proof));
}

TEST_F(PlanRun, SimulationWithADegradedCableNamesItAndExitsOne) {
  PlanCommandOptions o;
  o.routes = routes_;
  o.simulate = true;
  o.degrade = {"leaf0[1]=0.25"};
  std::ostringstream out;
  EXPECT_EQ(plan_command(o, out), 1) << out.str();
  EXPECT_NE(out.str().find("suspect cable"), std::string::npos) << out.str();
}

TEST_F(PlanRun, SimulatedBurnWritesItsRunDirectory) {
  burn::BurnOptions o;
  o.transport = burn::TransportKind::Sim;
  o.out_dir = dir_ + "/run";
  o.quiet = true;
  o.duration = std::chrono::milliseconds(10);
  BurnRouteOptions r;
  r.routes = routes_;
  EXPECT_EQ(burn_command(o, r), 0);
  EXPECT_TRUE(std::filesystem::exists(o.out_dir + "/summary.json"));
}

TEST_F(PlanRun, OptionsThatDoNotFitTheTransportAreUsageErrors) {
  burn::BurnOptions o;
  o.transport = burn::TransportKind::Tcp;
  BurnRouteOptions r;
  r.routes = routes_;
  r.degrade = {"leaf0[1]=0.5"};
  EXPECT_THROW(burn_command(o, r), Error);
  r.degrade.clear();
  r.endpoints = dir_ + "/endpoints";
  EXPECT_THROW(burn_command(o, r), Error);
}

TEST_F(PlanRun, ExplainerReadsTheFabricWhenMadeNotBefore) {
  BurnRouteOptions r;
  r.routes = routes_;
  auto make = route_explainer_factory(r);
  EXPECT_NE(make(), nullptr);
  r.routes.fabric.files = {dir_ + "/absent.json"};
  auto broken = route_explainer_factory(r);  // no error yet: rank 0 reads it at run start
  EXPECT_THROW(broken(), InputError);
}

}  // namespace
