// The drain guard on plain data: --max-drain's forms, the limit over the job's hosts, and what
// drain.txt says past it.
#include "run/drain_guard.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "report/history.h"
#include "run/service_actions.h"

namespace ibburn::run {
namespace {

std::vector<DrainEntry> hosts(int n) {
  std::vector<DrainEntry> v;
  for (int i = 1; i <= n; ++i) v.push_back({"host" + std::to_string(i), "degraded: host" + std::to_string(i) + " 1x"});
  return v;
}

TEST(DrainGuard, ParsesACountOrAShare) {
  EXPECT_FALSE(parse_drain_limit("12").percent);
  EXPECT_EQ(parse_drain_limit("12").value, 12);
  EXPECT_TRUE(parse_drain_limit("5%").percent);
  EXPECT_EQ(parse_drain_limit("2.5%").value, 2.5);
  for (const char* bad : {"", "%", "0", "-3", "1.5", "five", "12x", "0%", "101%", "inf%"})
    EXPECT_THROW(parse_drain_limit(bad), InputError) << bad;
  try {
    parse_drain_limit("lots");
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--max-drain: 'lots' is not a count of hosts (1, 2, ...) or a share of the job's hosts (5%)");
  }
}

TEST(DrainGuard, TheDefaultIsFivePercentOfTheJobAtLeastOne) {
  const DrainLimit def;
  EXPECT_EQ(max_hosts(def, 511), 25u);
  EXPECT_EQ(max_hosts(def, 8), 1u);
  EXPECT_EQ(max_hosts(def, 0), 1u);
  EXPECT_EQ(max_hosts(parse_drain_limit("3"), 511), 3u);
  EXPECT_EQ(max_hosts(parse_drain_limit("100%"), 511), 511u);
}

TEST(DrainGuard, WithinTheLimitEveryHostIsDrained) {
  GuardedDrain d = guard_drain(hosts(25), DrainLimit{}, 511);
  EXPECT_EQ(d.drain.size(), 25u);
  EXPECT_TRUE(d.withheld.empty());
  EXPECT_FALSE(d.finding);
  EXPECT_EQ(drain_text(d).substr(0, 29), "host1\tdegraded: host1 1x\nhost");
}

TEST(DrainGuard, PastTheLimitNobodyIsDrainedAndOneFindingSaysWhy) {
  GuardedDrain d = guard_drain(hosts(26), DrainLimit{}, 511);
  EXPECT_TRUE(d.drain.empty());
  EXPECT_EQ(d.withheld.size(), 26u);
  ASSERT_TRUE(d.finding);
  EXPECT_EQ(d.finding->kind, FindingKind::DrainLimit);
  EXPECT_EQ(d.finding->severity, Severity::Error);
  EXPECT_TRUE(d.finding->ports.empty());
  EXPECT_EQ(d.finding->message,
            "26 of the job's 511 hosts would be drained, more than --max-drain allows (25, 5%): the cause is wider "
            "than hosts (see the other findings: the fabric, a tier, a rail, a switch); nobody was drained, "
            "drain.txt lists them as comments");
  EXPECT_EQ(d.finding->details["would_drain"], 26);
  EXPECT_EQ(d.finding->details["max_drain"], 25);
  EXPECT_EQ(d.finding->details["hosts"].size(), 26u);
  // drain.txt: no line a script would take for a host to drain.
  const std::string text = drain_text(d);
  size_t lines = 0;
  for (size_t at = 0; at < text.size(); at = text.find('\n', at) + 1, ++lines) EXPECT_EQ(text[at], '#') << text;
  EXPECT_EQ(lines, 27u);
  EXPECT_NE(text.find("\n# host26\tdegraded: host26 1x\n"), std::string::npos);
}

TEST(DrainGuard, ACountLimitIsACount) {
  EXPECT_EQ(guard_drain(hosts(3), parse_drain_limit("3"), 4).drain.size(), 3u);
  GuardedDrain d = guard_drain(hosts(4), parse_drain_limit("3"), 4);
  EXPECT_TRUE(d.drain.empty());
  ASSERT_TRUE(d.finding);
  EXPECT_NE(d.finding->message.find("more than --max-drain allows (3)"), std::string::npos);
}

TEST(DrainGuard, TheJobsHostsAreItsEndpointsElseTheFabricsHosts) {
  burn::BurnSummary b;
  const std::map<std::string, std::string> fabric = {{"a mlx5_0", "a"}, {"a mlx5_1", "a"}, {"b mlx5_0", "b"}};
  EXPECT_EQ(hosts_in_job(b, fabric), 2u);
  burn::EndpointRecord e;
  e.host = "a";
  b.endpoints.push_back(e);
  b.endpoints.push_back(e);
  EXPECT_EQ(hosts_in_job(b, fabric), 1u);
}

TEST(DrainGuard, HostsDrainedOrWithheldByTheGuardDidNotPass) {
  GuardedDrain g;
  g.drain = {{"n1", "x"}};
  g.withheld = {{"n2", "y"}};
  EXPECT_EQ(passed_hosts({"n1", "n2", "n3"}, g), std::vector<std::string>{"n3"});
}

// The lists in cost order (run/service_actions.h): the priced first, costliest first, the rest
// in their order; drain.txt says the cost after the reason.
TEST(ServiceCosts, ListsFollowTheCostAndSayIt) {
  ServiceCosts costs;
  costs.add(costs.by_host, "h2", 4.0, "ring: 4.00x");
  costs.add(costs.by_host, "h2", 2.0, "tree: 2.00x");  // the largest stays
  costs.add(costs.by_host, "h3", 1.5, "ring: 1.50x");
  std::vector<DrainEntry> d = {{"h1", "a"}, {"h3", "c"}, {"h2", "b"}};
  order_by_cost(d, costs);
  EXPECT_EQ(d[0].host, "h2");
  EXPECT_EQ(d[0].cost, "ring: 4.00x");
  EXPECT_EQ(d[1].host, "h3");
  EXPECT_EQ(d[2].host, "h1");
  EXPECT_EQ(drain_text(d), "h2\tb\tcost: ring: 4.00x\nh3\tc\tcost: ring: 1.50x\nh1\ta\n");
  CableAction x, y;
  x.a = {"leaf01", 5}, x.b = {"spine01", 1}, x.action = "reseat";
  y.a = {"host1 mlx5_0", 1}, y.b = {"leaf01", 1}, y.action = "reseat";
  costs.add(costs.by_cable, report::cable_name(y.a, y.b), 4.0, "ring: 4.00x");
  std::vector<CableAction> cables = {x, y};
  order_by_cost(cables, costs);
  EXPECT_EQ(cables[0].a.node, "host1 mlx5_0");
  EXPECT_EQ(cables_csv(cables).substr(0, 68), "a_node,a_port,b_node,b_port,cable,action,cost,evidence,a_part,b_part");
  EXPECT_NE(cables_csv(cables).find("reseat,\"ring: 4.00x\","), std::string::npos) << cables_csv(cables);
}

}  // namespace
}  // namespace ibburn::run
