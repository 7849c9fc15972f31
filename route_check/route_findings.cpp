#include "route_check/route_findings.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "common/finding_details.h"
#include "common/guid.h"
#include "route_check/credit_loops.h"
#include "route_check/lid_owners.h"
#include "route_check/route_balance.h"
#include "route_check/route_walk.h"
#include "routing/port_groups.h"
#include "routing/routing.h"

namespace ibburn::route_check {
namespace {

constexpr size_t kListed = 5;      // LIDs a message names before "and N more"
constexpr size_t kDetailed = 100;  // rows a finding's details keep

PortRef ref(const topo::Fabric& fabric, topo::PortEnd p) { return {fabric.node(p.node).name, p.port}; }

std::string owner_name(const topo::Fabric& fabric, const LidOwners& owners, uint16_t lid) {
  const topo::PortEnd o = owners.owner(lid);
  return o.valid() ? fabric.port_name(o) : "no port";
}

std::string lid_text(const topo::Fabric& fabric, const LidOwners& owners, uint16_t lid) {
  return fmt::format("LID {} ({})", lid, owner_name(fabric, owners, lid));
}

Finding credit_loop(const topo::Fabric& fabric, const routing::CableIndex& cables, const RouteTables& tables,
                    const LidOwners& owners, const RouteWalk& walk, const CreditLoop& loop) {
  Finding f{FindingKind::CreditLoop, Severity::Critical, "", {}, nlohmann::json::object()};
  std::vector<std::string> path;
  for (ChannelId c : loop.cycle) {
    const routing::EdgeId e = walk.edge_of(c);
    path.push_back(cables.describe(fabric, e));
    f.ports.push_back(ref(fabric, cables.edge(e).from));
  }
  // A source whose route to the closing destination takes the last channel then the first.
  std::string closed_by;
  nlohmann::json route = nullptr;
  for (topo::NodeId n = 0; n < fabric.size() && closed_by.empty(); ++n) {
    if (fabric.node(n).is_switch()) continue;
    for (const topo::Port& p : fabric.node(n).ports) {
      if (p.number == 0 || p.lid == 0 || p.lid == loop.dlid) continue;
      const auto hops = tables.trace({n, p.number}, loop.dlid);
      bool closes = false;
      for (size_t i = 0; i + 1 < hops.size() && !closes; ++i)
        closes = hops[i] == loop.cycle.back() && hops[i + 1] == loop.cycle.front();
      if (!closes) continue;
      closed_by = fmt::format("{} to {}", fabric.port_name({n, p.number}), lid_text(fabric, owners, loop.dlid));
      route = {{"source", fabric.port_name({n, p.number})},
               {"destination", owner_name(fabric, owners, loop.dlid)},
               {"dlid", loop.dlid},
               {"sl", loop.sl}};
      break;
    }
  }
  std::string cycle_text;
  for (const auto& c : path) cycle_text += (cycle_text.empty() ? "" : ", ") + c;
  f.message = fmt::format("credit loop on VL {} through {} cable(s): {}{}", loop.vl, path.size(), cycle_text,
                          closed_by.empty() ? "" : "; the route " + closed_by + " closes it");
  f.details = {
      {"vl", loop.vl}, {"cables", path}, {"channels_involved", loop.channels_involved}, {"closing_route", route}};
  return f;
}

const char* why_text(DeadEnd::Why why) {
  switch (why) {
    case DeadEnd::Why::NoEntry: return "no_entry";
    case DeadEnd::Why::UnlinkedPort: return "unlinked_port";
    case DeadEnd::Why::WrongPort: return "wrong_port";
    case DeadEnd::Why::Loop: return "loop";
  }
  return "";
}

std::string dead_end_text(const topo::Fabric& fabric, const LidOwners& owners, const DeadEnd& d) {
  const std::string lid = lid_text(fabric, owners, d.dlid);
  switch (d.why) {
    case DeadEnd::Why::NoEntry: return "no entry for " + lid;
    case DeadEnd::Why::UnlinkedPort: return fmt::format("{} out of port {}, which has no cable", lid, d.port);
    case DeadEnd::Why::WrongPort: return fmt::format("{} ends at {} instead", lid, fabric.port_name(d.landed));
    case DeadEnd::Why::Loop: return "routes to " + lid + " loop back here";
  }
  return lid;
}

// One finding per switch with the LIDs its table leaves unreached; a switch without any
// table says that once.
void unreachable(const topo::Fabric& fabric, const RouteTables& tables, const LidOwners& owners,
                 const std::vector<DeadEnd>& dead_ends, std::vector<Finding>& out) {
  const std::vector<char> shared = routing::guid_shared(fabric);
  for (size_t i = 0; i < dead_ends.size();) {
    size_t j = i;
    while (j < dead_ends.size() && dead_ends[j].sw == dead_ends[i].sw) ++j;
    const topo::Node& sw = fabric.node(dead_ends[i].sw);
    Finding f{FindingKind::RouteUnreachable, Severity::Error, "", {{sw.name, 0}}, nlohmann::json::object()};
    nlohmann::json rows = nlohmann::json::array();
    std::string listed;
    for (size_t k = i; k < j; ++k) {
      const DeadEnd& d = dead_ends[k];
      if (rows.size() < kDetailed)
        rows.push_back({{"dlid", d.dlid}, {"owner", owner_name(fabric, owners, d.dlid)}, {"why", why_text(d.why)}});
      if (k - i < kListed) listed += (listed.empty() ? "" : "; ") + dead_end_text(fabric, owners, d);
    }
    const size_t count = j - i;
    const std::string more = count > kListed ? fmt::format("; and {} more", count - kListed) : "";
    if (!tables.has_table(dead_ends[i].sw) && shared[dead_ends[i].sw])
      f.message = fmt::format(
          "switch {} shares its GUID {} with another node, so no table keyed by GUID is its own: "
          "{} HCA LID(s) unrouted through it",
          sw.name, Guid{sw.guid}.text(), count);
    else if (!tables.has_table(dead_ends[i].sw))
      f.message = fmt::format("switch {} has no forwarding table: {} HCA LID(s) unrouted through it", sw.name, count);
    else
      f.message = fmt::format("switch {} does not route {} HCA LID(s): {}{}", sw.name, count, listed, more);
    f.details = {{"switch", sw.name}, {"count", count}, {"lids", rows}};
    out.push_back(std::move(f));
    i = j;
  }
}

// A switch's tally as details: the switch, how many LIDs, and its example (`example` and the
// example's LID and owner).
nlohmann::json tally_details(const topo::Fabric& fabric, const LidOwners& owners, topo::NodeId n, const SwitchTally& t,
                             nlohmann::json example) {
  example["dlid"] = t.example_lid;
  example["owner"] = owner_name(fabric, owners, t.example_lid);
  return {{"switch", fabric.node(n).name}, {"count", t.count}, {"example", std::move(example)}};
}

void tree_findings(const topo::Fabric& fabric, const routing::CableIndex& cables, const LidOwners& owners,
                   const RouteWalk& walk, std::vector<Finding>& out) {
  for (topo::NodeId n = 0; n < walk.turns.size(); ++n) {
    const SwitchTally& t = walk.turns[n];
    if (t.count == 0) continue;
    const routing::Edge& in = cables.edge(t.in);
    const routing::Edge& up = cables.edge(t.out);
    Finding f{FindingKind::RouteDownUp,
              Severity::Warning,
              fmt::format("routes to {} HCA LID(s) come down into {} and go up again (e.g. {}: {} then {})", t.count,
                          fabric.node(n).name, lid_text(fabric, owners, t.example_lid), cables.describe(fabric, t.in),
                          cables.describe(fabric, t.out)),
              {ref(fabric, in.to), ref(fabric, up.from)},
              nlohmann::json::object()};
    f.details = tally_details(fabric, owners, n, t,
                              {{"in", cables.describe(fabric, t.in)}, {"out", cables.describe(fabric, t.out)}});
    out.push_back(std::move(f));
  }
  for (topo::NodeId n = 0; n < walk.detours.size(); ++n) {
    const SwitchTally& t = walk.detours[n];
    if (t.count == 0) continue;
    Finding f{FindingKind::RouteNotShortest,
              Severity::Warning,
              fmt::format("switch {} routes {} HCA LID(s) over a next hop no closer to them (e.g. {}: {} hop(s) past "
                          "the shortest)",
                          fabric.node(n).name, t.count, lid_text(fabric, owners, t.example_lid), t.extra_hops),
              {{fabric.node(n).name, 0}},
              nlohmann::json::object()};
    f.details = tally_details(fabric, owners, n, t, {{"extra_hops", t.extra_hops}});
    out.push_back(std::move(f));
  }
}

Finding unbalanced(const topo::Fabric& fabric, const routing::CableIndex& cables, const Imbalance& im, double ratio) {
  Finding f{FindingKind::RouteUnbalanced, Severity::Warning, "", {}, nlohmann::json::object()};
  RouteUnbalancedDetails d;
  d.sw = fabric.node(im.sw).name;
  std::string loads;
  for (const PortLoad& p : im.ports) {
    const routing::Edge& e = cables.edge(p.edge);
    f.ports.push_back(ref(fabric, e.from));
    loads += fmt::format("{}{}: {}", loads.empty() ? "" : ", ", e.from.port, p.destinations);
    d.ports.push_back({e.from.port, fabric.port_name(e.to), p.destinations});
  }
  if (!std::isinf(im.max_over_min)) d.max_over_min = im.max_over_min;
  d.mean_over_max = im.mean_over_max;
  const std::string over = d.max_over_min ? fmt::format("max/min {:.2f}", *d.max_over_min) : "one carries none";
  f.message = fmt::format(
      "{}'s {} equal ports carry unequal numbers of HCA LIDs (port: LIDs {}; {} > {:.2f}): all-to-all through them "
      "runs at {:.0f}% of the design",
      d.sw, im.ports.size(), loads, over, ratio, 100 * im.mean_over_max);
  f.details = d;
  return f;
}

}  // namespace

RouteCheck check_routes(const topo::Fabric& fabric, const routing::CableIndex& cables,
                        const routing::ForwardingTables& lfts, const VlTables* vls, const RouteCheckOptions& options) {
  RouteCheck out;
  const LidOwners owners = lid_owners(fabric);
  out.destinations = owners.ca_lids.size();
  const RouteTables tables(fabric, cables, lfts, vls);
  const RouteWalk walk = walk_routes(fabric, cables, owners, tables);
  out.vl_count = walk.vl_count;
  out.tree = walk.tree;
  out.steps = walk.steps;
  const CreditLoopSearch loops = find_credit_loops(walk, cables.size());
  out.channels = loops.channels;
  out.dependencies = loops.dependencies;
  for (const CreditLoop& loop : loops.loops)
    out.findings.push_back(credit_loop(fabric, cables, tables, owners, walk, loop));
  unreachable(fabric, tables, owners, walk.dead_ends, out.findings);
  if (walk.tree) tree_findings(fabric, cables, owners, walk, out.findings);

  const routing::AdaptiveRouter shortest(fabric, cables);
  const auto groups = routing::equal_port_groups(fabric, cables, shortest);
  out.port_groups = groups.size();
  for (const Imbalance& im :
       unbalanced_groups(groups, destinations_by_edge(fabric, cables, lfts, owners), options.balance_ratio))
    out.findings.push_back(unbalanced(fabric, cables, im, options.balance_ratio));
  sort_worst_first(out.findings);
  return out;
}

std::string describe(const RouteCheck& check) {
  return fmt::format(
      "{} HCA LID(s); {} VL graph(s): {} channel(s), {} dependencies; {} hop(s) walked; {} group(s) of equal "
      "ports{}",
      check.destinations, check.vl_count, check.channels, check.dependencies, check.steps, check.port_groups,
      check.tree ? "; judged as a tree" : "");
}

}  // namespace ibburn::route_check
