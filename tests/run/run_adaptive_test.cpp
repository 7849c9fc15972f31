// `ibburn run --transport sim` on the field-notes design as fabric files under adaptive
// routing: the model moves load off a cable at 25%, its port counters (modelled from the
// stage's traffic) name it, and no host is drained for it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/file_io.h"
#include "run/run_command.h"
#include "tests/support/temp_dir.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring.h"

namespace ibburn {
namespace {

class RunAdaptive : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto spec = *wiring::fat_tree_preset("field-notes");
    spec.rate = {topo::Width::X4, topo::Speed::HDR};
    design = new wiring::FatTreeDesign(wiring::generate_fat_tree(spec));
  }
  static void TearDownTestSuite() { delete design; }
  static wiring::FatTreeDesign* design;

  testing::TempDir tmp_;
  std::string out_ = tmp_.path() + "/run";

  int run(const std::string& degrade) {
    const std::string net = tmp_.path() + "/design.net", csv = tmp_.path() + "/design.csv";
    write_file_atomic(net, wiring::to_ibsim_netfile(*design));
    write_file_atomic(csv, wiring::to_csv(design->wiring));
    run::RunOptions o;
    o.burn.transport = burn::TransportKind::Sim;
    o.burn.duration = std::chrono::milliseconds(1);
    o.burn.out_dir = out_;
    o.burn.quiet = true;
    o.routes.routes.fabric.files = {net};
    o.routes.routes.routing = "adaptive";
    o.routes.degrade = {degrade};
    o.wiring = csv;
    return run::run_command(o);
  }

  // cables.csv's rows without the header.
  std::vector<std::string> cables() const {
    std::istringstream in(read_file(out_ + "/cables.csv"));
    std::vector<std::string> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) rows.push_back(line);
    return rows;
  }
};
wiring::FatTreeDesign* RunAdaptive::design = nullptr;

TEST_F(RunAdaptive, LeafUplinkAtAQuarterIsTheOneCableNamedAndNoHostIsDrained) {
  // pod1-leaf03's uplink 37 (uplinks are ports 33..64) to a spine of pod 1.
  ASSERT_EQ(run("pod1-leaf03[37]=0.25"), 1);
  const auto rows = cables();
  ASSERT_EQ(rows.size(), 1u) << read_file(out_ + "/cables.csv");
  EXPECT_NE(rows[0].find("\"pod1-leaf03\",37,"), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("port counters"), std::string::npos) << rows[0];
  EXPECT_EQ(read_file(out_ + "/drain.txt"), "");
  const auto s = nlohmann::json::parse(read_file(out_ + "/summary.json"));
  int named = 0;
  for (const auto& f : s["findings"]) {
    if (f["kind"] != "suspect_cable") continue;
    ++named;
    EXPECT_EQ(f["details"]["source"], "port counters") << f.dump();
    EXPECT_EQ(f["severity"], "error") << f.dump();
    EXPECT_GE(f["details"]["confidence"].get<double>(), 0.75) << f.dump();
  }
  EXPECT_EQ(named, 1) << s["findings"].dump(1);
}

}  // namespace
}  // namespace ibburn
