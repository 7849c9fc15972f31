#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <regex>

#include "common/file_io.h"
#include "tests/support/temp_dir.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::wiring {
namespace {

using topo::LinkRate;
using topo::Speed;
using topo::Width;

// 2 hosts x 1 HCA on one radix-4 leaf, whose 2 uplinks go to one spine.
FatTreeDesign tiny() {
  FatTreeSpec s;
  s.tiers = 2;
  s.radix = 4;
  s.hosts = 2;
  s.hcas_per_host = 1;
  return generate_fat_tree(s);
}

TEST(WiringNetfile, RateAndIds) {
  EXPECT_EQ(ibsim_rate({Width::X4, Speed::NDR}), (LinkRate{Width::X4, Speed::HDR}));
  EXPECT_EQ(ibsim_rate({Width::X1, Speed::XDR}), (LinkRate{Width::X1, Speed::HDR}));
  EXPECT_EQ(ibsim_rate({Width::X4, Speed::EDR}), (LinkRate{Width::X4, Speed::EDR}));
  EXPECT_EQ(ibsim_rate({Width::X2, Speed::HDR}), (LinkRate{Width::X2, Speed::HDR}));
  EXPECT_EQ(ibsim_node_id(topo::NodeType::Switch, 0x0002c90301010001ULL), "S-0002c90301010001");
  EXPECT_EQ(ibsim_node_id(topo::NodeType::CA, 0x0002c90400000100ULL), "H-0002c90400000100");
}

TEST(WiringNetfile, RecordsFixGuidsAndRates) {
  FatTreeDesign d = tiny();
  ASSERT_EQ(d.switches.size(), 2u);
  std::string net = to_ibsim_netfile(d);
  // HCAs first, each record's GUID fixed by the line before it; ibsim reads width and speed
  // from the trailing "lid N 4xHDR" of every port line (NDR simulated as HDR).
  EXPECT_NE(net.find("vendid=0x2c9\n"
                     "devid=0x1021\n"
                     "sysimgguid=0x0002c90400000000\n"
                     "caguid=0x0002c90400000000\n"
                     "Ca\t1 \"H-0002c90400000000\"\t\t# \"host001 mlx5_0\"\n"
                     "[1](2c90400000001) \t\"S-0002c90301010001\"[1]\t\t# lid 0 lmc 0 \"leaf01\" lid 0 4xHDR\n\n"),
            std::string::npos)
      << net;
  EXPECT_NE(net.find("switchguid=0x0002c90301010001(2c90301010001)\n"
                     "Switch\t4 \"S-0002c90301010001\"\t\t# \"leaf01\" enhanced port 0 lid 0 lmc 0\n"
                     "[1]\t\"H-0002c90400000000\"[1](2c90400000001) \t\t# \"host001 mlx5_0\" lid 0 4xHDR\n"
                     "[2]\t\"H-0002c90400000100\"[1](2c90400000101) \t\t# \"host002 mlx5_0\" lid 0 4xHDR\n"
                     "[3]\t\"S-0002c90302010001\"[1]\t\t# \"spine01\" lid 0 4xHDR\n"
                     "[4]\t\"S-0002c90302010001\"[2]\t\t# \"spine01\" lid 0 4xHDR\n\n"),
            std::string::npos)
      << net;
  EXPECT_LT(net.find("Ca\t"), net.find("Switch\t"));
  EXPECT_NE(net.find("# Links are simulated at 4xHDR: ibsim 0.10 knows speeds up to HDR (the plan says 4xNDR).\n"),
            std::string::npos);

  d.spec.rate = {Width::X1, Speed::EDR};  // a rate ibsim knows is written as is, no note
  net = to_ibsim_netfile(d);
  EXPECT_NE(net.find("\"leaf01\" lid 0 1xEDR\n"), std::string::npos);
  EXPECT_EQ(net.find("simulated at"), std::string::npos);
}

TEST(WiringNetfile, GenericSwitchDescriptionsHideNames) {
  FatTreeDesign d = tiny();
  NetfileOptions o;
  o.generic_switch_descriptions = true;
  std::string net = to_ibsim_netfile(d, o);
  EXPECT_EQ(net.find("\"leaf01\""), std::string::npos);
  EXPECT_EQ(net.find("\"spine01\""), std::string::npos);
  EXPECT_NE(net.find("Switch\t4 \"S-0002c90301010001\"\t\t# \"MF0;sw:MQM9700/U1\" enhanced port 0"), std::string::npos);
  EXPECT_NE(net.find("# lid 0 lmc 0 \"MF0;sw:MQM9700/U1\" lid 0 4xHDR"), std::string::npos);
}

TEST(WiringNetfile, SizesFollowTheDesignAndTheFile) {
  FatTreeDesign fn = generate_fat_tree(*fat_tree_preset("field-notes"));
  IbsimSizes s = ibsim_sizes(fn);
  EXPECT_EQ(s.nodes, 320u + 4088u);
  EXPECT_EQ(s.switches, 320u);
  EXPECT_EQ(s.ports, 320u * 65 + 4088u);
  EXPECT_EQ(s.linear_cap, 30720u);  // ibsim's default suffices
  EXPECT_FALSE(s.lids_exhausted);
  EXPECT_EQ(s.args(), (std::vector<std::string>{"-N", "4408", "-S", "320", "-P", "24888"}));
  IbsimSizes f = ibsim_sizes_for_netfile(to_ibsim_netfile(fn));
  EXPECT_EQ(f.nodes, s.nodes);
  EXPECT_EQ(f.switches, s.switches);
  EXPECT_EQ(f.ports, s.ports);

  // Small fabrics keep ibsim's defaults.
  EXPECT_EQ(ibsim_sizes(tiny()).args(), (std::vector<std::string>{"-N", "2048", "-S", "256", "-P", "13312"}));
  // Any netfile: 2-port CAs count 2 ports and 2 LIDs; comments and other lines do not count.
  IbsimSizes hand = ibsim_sizes_for_netfile("# Switch 99\nSwitch 8 \"a\"\n[1] \"b\"[1]\n\nHca 2 \"b\"\nCa\t1 \"c\"\n");
  EXPECT_EQ(hand.ports, 13312u);

  FatTreeSpec big;
  big.hosts = 4096;  // 32k HCAs: more LIDs than ibsim's default forwarding table
  IbsimSizes b = ibsim_sizes(generate_fat_tree(big));
  EXPECT_EQ(b.nodes, 32768u + 2560u);
  EXPECT_EQ(b.linear_cap, 35392u);  // 35,329 LIDs rounded up to 64-entry blocks
  EXPECT_FALSE(b.lids_exhausted);
  EXPECT_EQ(b.args().at(6), "-L");
  big.hosts = 8192;  // 64k HCAs: more than the 49,151 unicast LIDs
  b = ibsim_sizes(generate_fat_tree(big));
  EXPECT_TRUE(b.lids_exhausted);
  EXPECT_EQ(b.linear_cap, 49152u);
}

// Runs ibsim on `netfile` with `args`, sends `Dump` and `Quit` to its console, returns what
// it printed ("" when ibsim is not installed).
std::string run_ibsim(const std::string& netfile_text, const std::vector<std::string>& args) {
  static std::atomic<int> serial{0};
  const std::string tag = "ibburn-wiring-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  testing::TempDir dir;
  const std::string net = dir.file("fabric.net");
  const std::string out = dir.file("console.out");
  write_file_atomic(net, netfile_text);
  std::string cmd = "printf 'Dump\\nQuit\\n' | IBSIM_SOCKNAME=" + tag + " timeout 120 ibsim -s";
  for (const std::string& a : args) cmd += " " + a;
  cmd += " " + net + " > " + out + " 2>&1";
  int rc = std::system(cmd.c_str());
  std::string text = std::filesystem::exists(out) ? read_file(out) : "";
  EXPECT_EQ(rc, 0) << text.substr(0, 4000);
  return text;
}

bool have_ibsim() { return std::system("command -v ibsim > /dev/null 2>&1") == 0; }

TEST(WiringNetfile, SmallDesignLoadsInIbsim) {
  if (!have_ibsim()) GTEST_SKIP() << "ibsim not installed";
  FatTreeSpec s;
  s.tiers = 2;
  s.radix = 8;
  s.hosts = 4;
  s.hcas_per_host = 2;
  FatTreeDesign d = generate_fat_tree(s);
  ASSERT_EQ(d.switches.size() + d.hcas.size(), 11u);
  std::string out = run_ibsim(to_ibsim_netfile(d), ibsim_sizes(d).args());
  EXPECT_NE(out.find("#  dumped 11 nodes"), std::string::npos) << out;
  // The GUIDs ibsim gives are the design's, and links do not fall back to SDR (2.5G).
  EXPECT_NE(out.find("\"S-0002c90301010001\"\tnodeguid 2c90301010001"), std::string::npos) << out;
  EXPECT_NE(out.find("\"H-0002c90400000102\"\tnodeguid 2c90400000102"), std::string::npos) << out;
  EXPECT_EQ(out.find("2.5G Init"), std::string::npos) << out;
  EXPECT_EQ(out.find("ibwarn"), std::string::npos) << out;  // ibsim warns on lines it cannot parse
}

TEST(WiringNetfile, FieldNotesDesignLoadsInIbsimWithItsSizes) {
  if (!have_ibsim()) GTEST_SKIP() << "ibsim not installed";
  FatTreeDesign d = generate_fat_tree(*fat_tree_preset("field-notes"));
  NetfileOptions o;
  o.generic_switch_descriptions = true;
  std::string out = run_ibsim(to_ibsim_netfile(d, o), ibsim_sizes(d).args());
  EXPECT_NE(out.find("#  dumped 4408 nodes"), std::string::npos) << out.substr(0, 4000);
}

}  // namespace
}  // namespace ibburn::wiring
