// `ibburn topo audit` against ibsim + opensm (docs/audit.md): opensm programs the P_Key tables
// from its own partitions.conf and ibsim answers them; the audit compares them with the site's
// intended file. A second opensm on another host makes a standby at the master's priority;
// ibsim's links train at MTU 2048. Each test checks the finding, the host or port it names and
// the exit code.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn {
namespace {

using testing::SimFabric;
using testing::SimOptions;

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";

// 2 leaves x 2 hosts, one HCA each, 2 spines.
wiring::FatTreeDesign design() {
  wiring::FatTreeSpec s;
  s.tiers = 2;
  s.radix = 8;
  s.hosts = 4;
  s.hcas_per_host = 1;
  s.spines_per_pod = 2;
  s.rate = {topo::Width::X4, topo::Speed::HDR};
  return wiring::generate_fat_tree(s);
}

class AuditSim : public ::testing::Test {
 protected:
  wiring::FatTreeDesign d_ = design();
  ibburn::testing::TempDir tmp_;

  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm not installed";
  }

  // host001's HCA port GUID, as partitions.conf names ports.
  std::string port_guid(int host) const { return fmt::format("0x{:016x}", d_.hcas[host - 1].guid + 1); }

  std::string file(const std::string& name, const std::string& text) {
    write_file_atomic(tmp_.file(name), text);
    return tmp_.file(name);
  }

  // The fabric, its SM programming the partitions of `sm_partitions`.
  std::unique_ptr<SimFabric> start(const std::string& sm_partitions) {
    SimOptions o;
    o.opensm_args = {"-R", "ftree", "-P", file("sm-partitions.conf", sm_partitions)};
    return std::make_unique<SimFabric>(file("net", wiring::to_ibsim_netfile(d_)), o);
  }

  testing::CommandResult audit(SimFabric& f, std::vector<std::string> extra) {
    std::vector<std::string> argv = {kIbburn, "topo", "audit", "--json", tmp_.file("audit.json")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return f.run(argv, std::chrono::seconds(60), {{"IBBURN_SITE_CONFIG", ""}});
  }

  // The findings of `kind` in the last audit's --json.
  std::vector<nlohmann::json> of_kind(const std::string& kind) const {
    std::vector<nlohmann::json> out;
    const auto j = nlohmann::json::parse(read_file(tmp_.file("audit.json")));
    for (const auto& f : j["findings"])
      if (f["kind"] == kind) out.push_back(f);
    return out;
  }
};

// The SM gives host001 and host002 full membership of tenantA and host004 too; the site meant
// host002 as a limited member, host003 as a member, and host004 not at all.
TEST_F(AuditSim, PartitionsAsProgrammedAgainstTheSitesIntent) {
  auto f = start(fmt::format("Default=0x7fff, ipoib : ALL=full ;\ntenantA=0x8001 : {}=full, {}=full, {}=full ;\n",
                             port_guid(1), port_guid(2), port_guid(4)));
  const std::string intent =
      file("partitions.conf",
           fmt::format("Default=0x7fff, ipoib : ALL=full ;\ntenantA=0x8001 : {}=full, {}=limited, {}=full ;\n",
                       port_guid(1), port_guid(2), port_guid(3)));
  auto r = audit(*f, {"--partitions", intent});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  auto missing = of_kind("pkey_missing");
  ASSERT_EQ(missing.size(), 1u) << r.out;
  EXPECT_NE(missing[0]["message"].get<std::string>().find("host003 mlx5_0"), std::string::npos) << missing[0].dump();
  EXPECT_NE(missing[0]["message"].get<std::string>().find("0x8001"), std::string::npos) << missing[0].dump();
  auto foreign = of_kind("pkey_foreign");
  ASSERT_EQ(foreign.size(), 1u) << r.out;
  EXPECT_NE(foreign[0]["message"].get<std::string>().find("host004 mlx5_0"), std::string::npos) << foreign[0].dump();
  EXPECT_NE(foreign[0]["message"].get<std::string>().find("tenantA"), std::string::npos) << foreign[0].dump();
  auto full = of_kind("pkey_full_not_limited");
  ASSERT_EQ(full.size(), 1u) << r.out;
  EXPECT_NE(full[0]["message"].get<std::string>().find("host002 mlx5_0"), std::string::npos) << full[0].dump();
  for (const auto& x : {missing[0], foreign[0], full[0]}) EXPECT_EQ(x["severity"], "error") << x.dump();
  // The same intent as the SM's: no P_Key finding.
  const std::string same = file("same.conf", read_file(tmp_.file("sm-partitions.conf")));
  r = audit(*f, {"--partitions", same});
  EXPECT_TRUE(of_kind("pkey_missing").empty() && of_kind("pkey_foreign").empty() &&
              of_kind("pkey_full_not_limited").empty())
      << r.out;
}

// A second opensm on host003's port at the default priority: one master, one standby at the
// master's priority; --sm-hosts names only host001.
TEST_F(AuditSim, ASecondSubnetManagerIsAStandbyAtTheMastersPriority) {
  auto f = start("Default=0x7fff : ALL=full ;\n");
  const std::string guid = port_guid(3);
  std::thread second([&] {
    f->run({"opensm", "-g", guid, "-p", "0", "-f", tmp_.file("opensm2.log")}, std::chrono::seconds(25),
           {{"OSM_CACHE_DIR", tmp_.path()}, {"SIM_HOST", fmt::format("H-{:016x}", d_.hcas[2].guid)}});
  });
  // Until the second SM answers as a standby.
  testing::CommandResult r;
  for (int i = 0; i < 40; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    r = audit(*f, {"--partitions", file("p.conf", "Default=0x7fff : ALL=full ;\n"), "--sm-hosts", "host001"});
    if (!of_kind("sm_equal_priority").empty()) break;
  }
  second.join();
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  auto equal = of_kind("sm_equal_priority");
  ASSERT_EQ(equal.size(), 1u) << r.out;
  EXPECT_NE(equal[0]["message"].get<std::string>().find("host003"), std::string::npos) << equal[0].dump();
  auto outside = of_kind("sm_outside_policy");
  ASSERT_EQ(outside.size(), 1u) << r.out;
  EXPECT_NE(outside[0]["message"].get<std::string>().find("host003"), std::string::npos) << outside[0].dump();
  EXPECT_TRUE(of_kind("sm_masters").empty()) << r.out;
  auto list = of_kind("sm_list");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_NE(list[0]["message"].get<std::string>().find("2 subnet managers"), std::string::npos) << list[0].dump();
}

// ibsim's ports train at MTU 2048; the site's policy says 4096: one finding for the fabric's
// links, not one per port.
TEST_F(AuditSim, LinksAt2048WhereThePolicySays4096AreOneFinding) {
  auto f = start("Default=0x7fff : ALL=full ;\n");
  auto r = audit(*f, {"--partitions", file("p.conf", "Default=0x7fff : ALL=full ;\n"), "--mtu", "4096"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  auto low = of_kind("mtu_low");
  ASSERT_GE(low.size(), 1u) << r.out;
  EXPECT_LE(low.size(), 2u) << "one cause, one finding per tier at most: " << r.out;
  EXPECT_EQ(low[0]["severity"], "error");
  EXPECT_NE(low[0]["message"].get<std::string>().find("2048"), std::string::npos) << low[0].dump();
  EXPECT_NE(low[0]["message"].get<std::string>().find("4096"), std::string::npos) << low[0].dump();
  // Bad input names the option, before the fabric is touched.
  r = audit(*f, {"--mtu", "3000"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--mtu"), std::string::npos) << r.err;
  r = audit(*f, {"--partitions", file("bad.conf", "Default=0x7fff : ALL=full ;\nbroken=0x8001 ALL ;\n")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bad.conf:2"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ibburn
