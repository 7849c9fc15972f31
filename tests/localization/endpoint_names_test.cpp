// The burn's endpoint findings named as the site names the part (localization/endpoint_names.h):
// node name, HCA, port and the cable's far end, never a rank; the rank and GUID stay in details.
#include "localization/endpoint_names.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "burn/summary.h"
#include "burn/verdict.h"
#include "localization/burn_localize.h"
#include "tests/routing/fat_tree_fixture.h"
#include "topo/fabric_summary.h"

namespace ibburn::localization {
namespace {

Finding endpoint_finding(FindingKind kind, int rank, const std::string& reason) {
  burn::EndpointRecord r;
  r.rank = rank;
  r.verdict = kind == FindingKind::SuspectEndpoint ? burn::Verdict::Suspect : burn::Verdict::Slow;
  r.directions = 2;
  r.bad = 2;
  r.host = "host" + std::to_string(rank);
  r.endpoint = "mlx5_0:1";
  r.reason = reason;
  return {kind, Severity::Error, fmt::format("host{} mlx5_0:1: {}", rank, reason), {{"rank", 0}}, burn::to_json(r)};
}

TEST(EndpointNames, AnEndpointIsItsHcaPortAndTheCablesFarEnd) {
  const auto ft = routing::fixture::make_fat_tree(2, 2, 2);
  std::vector<Finding> findings{endpoint_finding(FindingKind::SlowEndpoint, 1, "all 2 measured directions slow"),
                                endpoint_finding(FindingKind::LostRank, 2, "stopped answering"),
                                endpoint_finding(FindingKind::SlowEndpoint, 3, "all 2 measured directions slow"),
                                {FindingKind::SlowFlow, Severity::Error, "stage 1 flow 0: ...", {}, {}}};
  // Rank 3's port is not known (a TCP rank without --endpoints): left as the burn wrote it.
  name_endpoint_findings(findings, ft.fabric, {0x4000, 0x4001, 0x4002, 0});
  EXPECT_EQ(findings[0].message, "host1 mlx5_0[1] (cable to leaf0[2]): all 2 measured directions slow");
  EXPECT_EQ(findings[0].ports, (std::vector<PortRef>{{"host1 mlx5_0", 1}, {"leaf0", 2}}));
  const auto details = details_of<FindingKind::SlowEndpoint>(findings[0]);
  EXPECT_EQ(details.rank, 1);
  EXPECT_EQ(details.port_guid, 0x4001u);
  EXPECT_EQ(findings[0].details["port_guid"], "0x0000000000004001");
  EXPECT_EQ(findings[1].message, "host2 mlx5_0[1] (cable to leaf1[1]): stopped answering");
  EXPECT_EQ(findings[2].message, "host3 mlx5_0:1: all 2 measured directions slow");
  EXPECT_EQ(findings[2].ports, (std::vector<PortRef>{{"rank", 0}}));
  EXPECT_EQ(findings[3].message, "stage 1 flow 0: ...");
}

// No fabric (RoCE): the ranks' own ports name the parts, a rank that never said is left alone.
TEST(EndpointNames, WithoutAFabricTheRanksOwnDevicesNameTheirPorts) {
  std::vector<burn::EndpointInfo> eps(3);
  eps[0].host = "vm01", eps[0].endpoint = "rxe0:1";
  eps[1].host = "vm02", eps[1].endpoint = "mlx5_1:2";
  eps[2].host = "vm03", eps[2].endpoint = "eth0";  // tcp: an interface, no port number
  EXPECT_EQ(device_port(eps[1]), (PortRef{"vm02 mlx5_1", 2}));
  EXPECT_EQ(device_port(eps[2]), (PortRef{"vm03 eth0", 0}));
  EXPECT_FALSE(device_port(burn::EndpointInfo{}));
  Finding slow = endpoint_finding(FindingKind::SlowEndpoint, 1, "all 2 measured directions slow");
  slow.ports = {burn::endpoint_ref(eps, 1)};
  const Finding flow{FindingKind::SlowFlow,
                     Severity::Error,
                     "stage 1 flow 0: ...",
                     {burn::endpoint_ref(eps, 0), burn::endpoint_ref(eps, 2)},
                     {}};
  const Finding beyond{FindingKind::SlowFlow, Severity::Error, "rank 7", {burn::endpoint_ref(eps, 7)}, {}};
  const Finding counters{
      FindingKind::ErrorsUnderLoad, Severity::Error, "link_downed +1", {burn::endpoint_ref(eps, 2)}, {}};
  std::vector<Finding> findings{slow, flow, beyond, counters};
  name_endpoint_findings(findings, eps);
  EXPECT_EQ(findings[0].message, "vm02 mlx5_1[2] (no cable known): all 2 measured directions slow");
  EXPECT_EQ(findings[0].ports, (std::vector<PortRef>{{"vm02 mlx5_1", 2}}));
  EXPECT_EQ(findings[1].ports, flow.ports);  // a flow's ranks: which end is to blame is the endpoints' verdict
  EXPECT_EQ(findings[1].message, "stage 1 flow 0: ...");
  EXPECT_EQ(findings[2].ports, beyond.ports);
  EXPECT_EQ(findings[3].ports, (std::vector<PortRef>{{"vm03 eth0", 0}}));
}

// Two HCAs sharing a port GUID (a fault topo check reports): neither is a rank's port, rather
// than the first one for both; unique GUIDs are as before.
TEST(PortsByGuid, AGuidTwoHcaPortsShareIsNoRanksPort) {
  auto ft = routing::fixture::make_fat_tree(2, 2, 2);
  const topo::PortEnd a{ft.hosts[0], 1}, b{ft.hosts[1], 1}, c{ft.hosts[2], 1};
  ft.fabric.port(b).guid = ft.fabric.port(a).guid;
  const auto by_guid = topo::hca_ports_by_guid(ft.fabric);
  EXPECT_FALSE(by_guid.contains(ft.fabric.port(a).guid));
  ASSERT_TRUE(by_guid.contains(ft.fabric.port(c).guid));
  EXPECT_EQ(by_guid.at(ft.fabric.port(c).guid), c);
}

}  // namespace
}  // namespace ibburn::localization
