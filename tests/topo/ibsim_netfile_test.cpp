// The ibnetdiscover text ibburn writes is a netfile ibsim accepts, and the fabric ibsim then
// simulates is the one written: ibnetdiscover run against it under umad2sim reports the same
// nodes, links, widths, speeds and LIDs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/file_io.h"
#include "fabric_expect.h"
#include "tests/support/corpus.h"
#include "tests/support/temp_dir.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;
using namespace ibburn::topo::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kUmad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

bool have(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

class FabricInIbsim : public ibburn::testing::CorpusTest {
 protected:
  void SetUp() override {
    CorpusTest::SetUp();
    if (IsSkipped()) return;
    if (!have("ibsim") || !have("ibnetdiscover") || !fs::exists(kUmad2sim))
      GTEST_SKIP() << "ibsim, ibnetdiscover or umad2sim is not installed";
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    sock_ = "ibburn-topo-io-" + std::to_string(getpid()) + "-" + name;
  }

  // Starts ibsim on `netfile`, runs ibnetdiscover against it, stops ibsim; returns the
  // discovered text, or fails the test with ibsim's log.
  std::string discover_in_ibsim(const fs::path& netfile) {
    fs::path script = dir_ / "run.sh";
    std::ofstream(script) << "set -u\ncd '" << dir_.string() << "'\n"
                          << "export IBSIM_SOCKNAME='" << sock_ << "'\n"
                          << "mkfifo ctl\n"
                          << "timeout 120 ibsim -s '" << netfile.string() << "' < ctl > ibsim.log 2>&1 &\n"
                          << "sim=$!\nexec 3>ctl\n"
                          << "for i in $(seq 200); do grep -q 'simulator ready' ibsim.log && break; sleep 0.1; done\n"
                          << "LD_PRELOAD=" << kUmad2sim << " timeout 60 ibnetdiscover > disc.txt 2> disc.err\n"
                          << "rc=$?\necho quit >&3\nexec 3>&-\nwait $sim\nexit $rc\n";
    int rc = std::system(("bash '" + script.string() + "'").c_str());
    std::string log = fs::exists(dir_ / "ibsim.log") ? read_file((dir_ / "ibsim.log").string()) : "";
    EXPECT_EQ(rc, 0) << "ibsim log:\n" << log;
    EXPECT_EQ(log.find("fatal"), std::string::npos) << log;
    return rc == 0 ? read_file((dir_ / "disc.txt").string()) : "";
  }

  void expect_ibsim_reproduces(const std::string& corpus_name) {
    Fabric original = load_fabric_file(ibburn::testing::corpus_path("ibnetdiscover/" + corpus_name));
    fs::path net = dir_ / "fabric.net";
    save_fabric_file(original, net.string());
    std::string text = discover_in_ibsim(net);
    ASSERT_FALSE(text.empty());
    Fabric seen = parse_fabric_text(text, "ibnetdiscover-in-ibsim");
    ASSERT_EQ(seen.size(), original.size());
    EXPECT_EQ(seen.links().size(), original.links().size());
    for (const Node& n : original.nodes()) {
      SCOPED_TRACE(n.description);
      auto id = seen.find_guid(n.guid);
      ASSERT_TRUE(id);
      const Node& s = seen.node(*id);
      EXPECT_EQ(s.type, n.type);
      EXPECT_EQ(s.description, n.description);
      EXPECT_EQ(s.num_ports, n.num_ports);
      EXPECT_EQ(s.device_id, n.device_id);
      for (const Port& p : n.ports) {
        if (!p.linked()) continue;
        const Node& peer = original.node(p.remote.node);
        expect_link(seen, n.guid, p.number, peer.guid, p.remote.port, p.active);
        EXPECT_EQ(s.ports[p.number].lid, p.lid) << "port " << p.number;
      }
    }
  }

  ibburn::testing::TempDir tmp_;
  const fs::path dir_ = tmp_.path();
  std::string sock_;
};

}  // namespace

// Mixed FDR/FDR10/EDR/HDR links, loopback cables, a SHARP node.
TEST_F(FabricInIbsim, LabFabricWithLoopbacks) {
  expect_ibsim_reproduces("qm8700-sx6036-hdr-fdr-lab-2021-orkreizman.txt");
}

// A two-level fat tree with dual-port HCAs, FDR10 uplinks.
TEST_F(FabricInIbsim, Sx6036FatTree) { expect_ibsim_reproduces("sx6036-fdr10-qdr-2014-loginoff.txt"); }
