// Routing validation at scale (bench/route_check.sh): a fabric file (`wiring gen` output) is
// given LIDs as opensm would hand them out and forwarding tables as a fat-tree engine would
// program them (each switch sends each HCA LID over the shortest-path next hop chosen by LID
// modulo their count: D-mod-K), then judged as `topo routes` does with one VL. Prints each
// part's time and the dependency graph's size; then the peer's way, ibdm's (ibdiagnet's
// engine): every CA-to-CA pair traced on its own and each dependency put in a hash set,
// timed over SAMPLE sources and scaled to all of them.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "route_check/credit_loops.h"
#include "route_check/lid_owners.h"
#include "route_check/route_balance.h"
#include "route_check/route_findings.h"
#include "route_check/route_walk.h"
#include "routing/port_groups.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void assign_lids(topo::Fabric& fabric) {
  uint16_t next = 1;
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    topo::Node& node = fabric.node(n);
    if (node.is_switch()) {
      node.ports[0].lid = next++;
      continue;
    }
    for (topo::Port& p : node.ports)
      if (p.number > 0 && p.linked()) p.lid = next++;
  }
}

routing::ForwardingTables dmodk_tables(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                       const route_check::LidOwners& owners) {
  const routing::AdaptiveRouter shortest(fabric, cables);
  routing::ForwardingTables lfts;
  std::vector<routing::Hop> hops;
  for (topo::NodeId s = 0; s < fabric.size(); ++s) {
    if (!fabric.node(s).is_switch()) continue;
    std::vector<uint8_t>& lft = lfts.by_switch_guid[fabric.node(s).guid];
    lft.assign(owners.by_lid.size(), routing::ForwardingTables::kNoRoute);
    topo::NodeId last_to = topo::kNoNode;
    for (uint16_t lid : owners.ca_lids) {
      const topo::PortEnd hca = owners.owner(lid);
      const topo::PortEnd at = fabric.port(hca).remote;
      if (at.node == s) {
        lft[lid] = static_cast<uint8_t>(at.port);
        continue;
      }
      if (at.node != last_to) shortest.split_hops(s, at.node, hops), last_to = at.node;
      if (!hops.empty()) lft[lid] = static_cast<uint8_t>(cables.edge(hops[lid % hops.size()].edge).from.port);
    }
  }
  return lfts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FABRIC_FILE [SAMPLE]\n", argv[0]);
    return 2;
  }
  const size_t sample = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 64;
  auto t0 = Clock::now();
  topo::Fabric fabric = topo::load_fabric_file(argv[1]);
  assign_lids(fabric);
  const routing::CableIndex cables(fabric, 1.0);
  const route_check::LidOwners owners = route_check::lid_owners(fabric);
  std::printf("fabric: %zu switches, %zu HCAs, %zu cable directions, loaded in %.2f s\n", fabric.switch_count(),
              fabric.ca_count(), cables.size(), since(t0));
  t0 = Clock::now();
  const routing::ForwardingTables lfts = dmodk_tables(fabric, cables, owners);
  std::printf("tables: D-mod-K for %zu HCA LIDs on every switch in %.2f s (setup, not timed below)\n",
              owners.ca_lids.size(), since(t0));

  t0 = Clock::now();
  const route_check::RouteTables tables(fabric, cables, lfts, nullptr);
  const double transpose_s = since(t0);
  t0 = Clock::now();
  const route_check::RouteWalk walk = route_check::walk_routes(fabric, cables, owners, tables);
  double walk_s = since(t0);
  t0 = Clock::now();
  const route_check::CreditLoopSearch loops = route_check::find_credit_loops(walk, cables.size());
  const double loops_s = since(t0);
  walk_s += transpose_s;
  std::printf(
      "credit loops (one VL): tables by LID %.2f s, walk %.2f s (%llu hops), cycles %.2f s: %zu channels, %zu "
      "dependencies, %zu loop(s); %.2f s in all\n",
      transpose_s, walk_s - transpose_s, static_cast<unsigned long long>(walk.steps), loops_s, loops.channels,
      loops.dependencies, loops.loops.size(), walk_s + loops_s);

  t0 = Clock::now();
  const routing::AdaptiveRouter shortest(fabric, cables);
  const auto groups = routing::equal_port_groups(fabric, cables, shortest);
  const auto by_edge = route_check::destinations_by_edge(fabric, cables, lfts, owners);
  const auto unbalanced = route_check::unbalanced_groups(groups, by_edge, 1.5);
  std::printf("balance: %zu groups of equal ports, %zu unbalanced, %.2f s\n", groups.size(), unbalanced.size(),
              since(t0));

  t0 = Clock::now();
  const route_check::RouteCheck check = route_check::check_routes(fabric, cables, lfts, nullptr, {});
  const double whole_s = since(t0);
  std::printf("topo routes' whole check: %.2f s, %zu finding(s)\n", whole_s, check.findings.size());

  // The peer: every pair on its own (ibdm's CrdLoopAnalyze traces each CA-to-CA LID pair).
  std::unordered_set<uint64_t> deps;
  size_t sources = 0, pairs = 0;
  t0 = Clock::now();
  for (topo::NodeId n = 0; n < fabric.size() && sources < sample; ++n) {
    if (fabric.node(n).is_switch()) continue;
    ++sources;
    for (uint16_t lid : owners.ca_lids) {
      const auto route = tables.trace({n, 1}, lid);
      for (size_t i = 0; i + 1 < route.size(); ++i) deps.insert(uint64_t{route[i]} << 32 | route[i + 1]);
      ++pairs;
    }
  }
  const double peer_s = since(t0);
  const double peer_all = peer_s * static_cast<double>(fabric.ca_count()) / static_cast<double>(sources);
  std::printf("peer (every pair traced, as ibdm): %zu sources x %zu LIDs in %.2f s; all %zu sources: ~%.0f s\n",
              sources, owners.ca_lids.size(), peer_s, fabric.ca_count(), peer_all);
  std::printf("ratio: the per-pair walk would take %.0fx the check's walk and cycle search\n",
              peer_all / (walk_s + loops_s));
  return pairs > 0 ? 0 : 1;
}
