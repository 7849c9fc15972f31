// `topo check` past its argument parsing (check/check_command.h): the wiring list and fabric
// files in, the summary, the findings JSON and the exit code out.
#include "topo_check/topo_check_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"
#include "tests/topo_check/fabric_builder.h"
#include "topo/fabric_io.h"

namespace ibburn::topo_check {
namespace {

class CheckRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "ibburn-check-run-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    make_dirs(dir_);
    o_.wiring = dir_ + "/plan.csv";
    write_file_atomic(o_.wiring, wiring::to_csv(plan_));
    built_ = ibburn::testing::build_fabric(plan_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int run() {
    const std::string path = dir_ + "/fabric.json";
    topo::save_fabric_file(built_.fabric, path);
    o_.fabric.files = {path};
    return topo_check_command(o_, out_, err_);
  }

  wiring::Wiring plan_ = ibburn::testing::make_plan({{"h1 mlx5_0", 1, "leaf1", 1},
                                                     {"h2 mlx5_0", 1, "leaf2", 1},
                                                     {"leaf1", 3, "spine1", 1},
                                                     {"leaf2", 3, "spine1", 2},
                                                     {"leaf1", 4, "spine2", 1},
                                                     {"leaf2", 4, "spine2", 2}},
                                                    "4xHDR");
  ibburn::testing::BuiltFabric built_;
  TopoCheckCommandOptions o_;
  std::ostringstream out_, err_;
  std::string dir_;
};

TEST_F(CheckRun, CleanFabricExitsZeroWithOkSummary) {
  EXPECT_EQ(run(), 0);
  EXPECT_NE(out_.str().find("topo check: OK"), std::string::npos) << out_.str();
}

TEST_F(CheckRun, MissingCableExitsOneAndIsInTheJson) {
  ibburn::testing::unplug(built_.fabric, built_.at("leaf1", 3));
  o_.json_out = dir_ + "/findings.json";
  EXPECT_EQ(run(), 1);
  auto j = nlohmann::json::parse(read_file(o_.json_out));
  std::vector<std::string> kinds;
  for (const auto& f : j.at("findings")) kinds.push_back(f.at("kind"));
  EXPECT_EQ(kinds, std::vector<std::string>{"missing"}) << j.dump(1);
  EXPECT_NE(out_.str().find("missing"), std::string::npos) << out_.str();
}

TEST_F(CheckRun, BadWiringFailsBeforeTheFabricIsRead) {
  o_.wiring = dir_ + "/absent.csv";
  o_.fabric.files = {dir_ + "/absent.json"};
  try {
    topo_check_command(o_, out_, err_);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), o_.wiring);
  }
}

}  // namespace
}  // namespace ibburn::topo_check
