// A partial job on plain data: which findings are the job's, the one `untested` finding, and
// the allocation read from Slurm's names or a list.
#include "run/job_scope.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "run/job_allocation.h"
#include "tests/routing/fat_tree_fixture.h"

namespace ibburn::run {
namespace {

// 2 leaves x 2 hosts (host0, host1 on leaf0; host2, host3 on leaf1), 2 spines.
class JobScopeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ft_ = routing::fixture::make_fat_tree(2, 2, 2);
    m_.fabric = ft_.fabric;
    m_.cables = std::make_unique<routing::CableIndex>(m_.fabric, 0);
    for (const auto& n : m_.fabric.nodes())
      if (n.is_ca()) host_of_hca_[n.name] = n.description.substr(0, n.description.find(' '));
  }
  JobScope scope(std::set<std::string> hosts) const {
    return JobScope(m_.fabric, host_of_hca_, std::move(hosts), "slurm");
  }
  // Octets per cable direction as a stage between host0 and host1 puts them: their two leaf
  // cables, both ways.
  std::vector<double> leaf0_traffic() const {
    std::vector<double> expected(m_.cables->size(), 0.0);
    for (const auto h : {ft_.hosts[0], ft_.hosts[1]}) {
      const routing::EdgeId up = m_.cables->out_edge({h, 1});
      expected[up] = expected[m_.cables->reverse(up)] = 1e9;
    }
    return expected;
  }
  static Finding finding(std::vector<PortRef> ports) {
    Finding f;
    f.kind = FindingKind::Errors;
    f.ports = std::move(ports);
    return f;
  }

  routing::fixture::FatTree ft_;
  routing::RouteModel m_;
  std::map<std::string, std::string> host_of_hca_;
};

TEST_F(JobScopeTest, FindingsAboutHostsOutsideTheJobAreDroppedAndTheFabricsKept) {
  const JobScope s = scope({"host0", "host1"});
  ASSERT_TRUE(s.partial());
  EXPECT_TRUE(s.about_job(finding({{"host0 mlx5_0", 1}})));
  EXPECT_FALSE(s.about_job(finding({{"host2 mlx5_0", 1}})));
  // host2's cable, either end or both: not the job's.
  EXPECT_FALSE(s.about_job(finding({{"leaf1", 1}})));
  EXPECT_FALSE(s.about_job(finding({{"host2 mlx5_0", 1}, {"leaf1", 1}})));
  // A leaf uplink, and a finding of the whole fabric, are the job's.
  EXPECT_TRUE(s.about_job(finding({{"leaf1", 3}, {"spine0", 2}})));
  EXPECT_TRUE(s.about_job(finding({})));
  const auto kept = s.within({finding({{"host3 mlx5_0", 1}}), finding({{"host1 mlx5_0", 1}})});
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].ports[0].node, "host1 mlx5_0");
  const auto record = s.record();
  ASSERT_TRUE(record);
  EXPECT_EQ(record->source, "slurm");
  EXPECT_EQ(record->hosts, (std::vector<std::string>{"host0", "host1"}));
  EXPECT_EQ(record->outside, (std::vector<std::string>{"host2", "host3"}));
}

TEST_F(JobScopeTest, UntestedCablesAndSwitchesAreOneFindingWithACountAndAList) {
  const JobScope s = scope({"host0", "host1"});
  const auto f = s.untested(m_, leaf0_traffic());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FindingKind::Untested);
  EXPECT_EQ(f->severity, Severity::Info);
  EXPECT_TRUE(f->ports.empty());
  // host2's and host3's cables, and the four leaf-spine cables: no stage loaded them. Leaf1
  // and both spines carried nothing; leaf0 carried its hosts' traffic.
  const auto cables = f->details["cables"].get<std::vector<std::string>>();
  EXPECT_EQ(cables.size(), 6u) << f->details.dump(1);
  EXPECT_EQ(std::count(cables.begin(), cables.end(), "host2 mlx5_0[1] - leaf1[1]"), 1) << f->details.dump(1);
  EXPECT_EQ(f->details["switches"], (nlohmann::json{"leaf1", "spine0", "spine1"}));
  EXPECT_EQ(f->details["hosts_in_job"], 2);
  EXPECT_EQ(f->details["hosts_outside"], 2);
  EXPECT_NE(f->message.find("6 cable(s) and 3 switch(es) untested: the job held 2 of the fabric's 4 hosts"),
            std::string::npos)
      << f->message;
  // Each untested cable's two directions, for unused_directions to leave out.
  EXPECT_EQ(s.untested_edges(m_, leaf0_traffic()).size(), 12u);
}

TEST_F(JobScopeTest, AJobHoldingEveryHostIsNotPartialAndSaysNothingMore) {
  const JobScope s = scope({"host0", "host1", "host2", "host3"});
  EXPECT_FALSE(s.partial());
  EXPECT_FALSE(s.record());
  EXPECT_FALSE(s.untested(m_, leaf0_traffic()));
  EXPECT_TRUE(s.untested_edges(m_, leaf0_traffic()).empty());
  EXPECT_TRUE(s.about_job(finding({{"host3 mlx5_0", 1}})));
}

TEST(JobAllocation, SlurmNodesResolveToTheFabricsHostsAndUnknownNodesAreTold) {
  std::vector<slurm::SlurmNode> nodes = {{"gpu1", "gpu1.site", "10.0.0.1", "IDLE", ""},
                                         {"gpu2", "gpu2.site", "10.0.0.2", "IDLE", ""},
                                         {"gpu3", "gpu3.site", "10.0.0.3", "IDLE", ""},
                                         {"login9", "login9", "10.0.0.9", "IDLE", ""}};
  // ibburn knows the hosts by their FQDNs (the HCAs' node descriptions).
  const auto a = allocation_from_slurm({"gpu1", "gpu3", "login9"}, {"gpu1.site", "gpu2.site", "gpu3.site"}, nodes, {});
  EXPECT_EQ(a.hosts, (std::set<std::string>{"gpu1.site", "gpu3.site"}));
  EXPECT_EQ(a.nodes_without_host, std::vector<std::string>{"login9"});
}

TEST(JobAllocation, ListsAndFilesNameHostsAndAnUnknownHostIsBadInput) {
  EXPECT_TRUE(parse_allocation("slurm").from_slurm);
  EXPECT_EQ(parse_allocation("h1,h2").hosts, (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(parse_allocation("@hosts.txt", "# tonight\nh1 h2\nh3, h4\n").hosts,
            (std::vector<std::string>{"h1", "h2", "h3", "h4"}));
  EXPECT_THROW(parse_allocation("@empty.txt", "# nobody\n"), InputError);
  EXPECT_EQ(allocation_from_list({"h1"}, {"h1", "h2"}, "--allocation").hosts, std::set<std::string>{"h1"});
  try {
    allocation_from_list({"h1", "h9"}, {"h1", "h2"}, "hosts.txt");
    FAIL() << "h9 is not in the fabric";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("hosts.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("host h9 is not in the fabric"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ibburn::run
