#include "planner/planner.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace ibburn::planner {
namespace {

double endpoint_gbps(const routing::CableIndex& cables, topo::PortEnd p) {
  return cables.edge(cables.out_edge(p)).capacity_gbps;
}

struct Candidate {
  std::vector<PlannedFlow> flows;
  std::vector<double> load;
  size_t gain = 0;
  size_t unroutable = 0;
  std::string routing_error;  // the first one, as an example
};

// Routes the flows in order and admits each one only if no edge on its path would exceed
// max_load (first fit): linear in the routes' size, and overloads never occur.
Candidate evaluate(const routing::CableIndex& cables, const routing::Router& router,
                   const std::vector<topo::PortEnd>& endpoints, const std::vector<PlannedFlow>& flows,
                   double max_load) {
  Candidate c;
  c.load.assign(cables.size(), 0.0);
  routing::PathShares path;
  for (const PlannedFlow& f : flows) {
    topo::PortEnd s = endpoints[f.src], d = endpoints[f.dst];
    double rate = std::min(endpoint_gbps(cables, s), endpoint_gbps(cables, d));
    path.clear();
    try {
      router.route(s, d, path);
    } catch (const routing::RoutingError& e) {
      // Unroutable flows do not run in this stage; make_plan reports them.
      if (c.unroutable++ == 0) c.routing_error = e.what();
      continue;
    }
    bool fits = true;
    for (auto [e, share] : path)
      if (c.load[e] + share * rate / cables.edge(e).capacity_gbps > max_load + 1e-9) fits = false;
    if (!fits) continue;
    for (auto [e, share] : path) c.load[e] += share * rate / cables.edge(e).capacity_gbps;
    c.flows.push_back(f);
  }
  return c;
}

// Shift amounts to try, best first: half the fabric away (every flow leaves its pod in a
// multi-tier tree), then whole-switch shifts and their small offsets (a switch with fewer
// endpoints than uplinks leaves a different uplink idle in each), then an even spread.
std::vector<int> shift_amounts(size_t n, size_t per_switch, int max_candidates) {
  std::vector<int> out;
  std::set<size_t> seen;
  const size_t cap = static_cast<size_t>(max_candidates);
  auto add = [&](size_t k) {
    k %= n;
    if (k && out.size() < cap && seen.insert(k).second) out.push_back(static_cast<int>(k));
  };
  const size_t half = std::max<size_t>(1, (n / 2 + per_switch / 2) / per_switch) * per_switch;
  for (size_t j = 0; j < 4; ++j) add(half + j);
  for (size_t k = per_switch; k < n && out.size() < cap / 2; k += per_switch) add(k), add(k + 1);
  size_t step = std::max<size_t>(1, n / std::max<size_t>(1, cap / 2));
  for (size_t k = 1; k < n; k += step) add(k);
  return out;
}

}  // namespace

std::vector<topo::PortEnd> all_hca_ports(const topo::Fabric& fabric) {
  std::vector<topo::PortEnd> out;
  std::vector<topo::NodeId> cas;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    if (fabric.node(n).is_ca()) cas.push_back(n);
  std::sort(cas.begin(), cas.end(), [&](auto a, auto b) { return fabric.node(a).name < fabric.node(b).name; });
  for (auto n : cas)
    for (const auto& p : fabric.node(n).ports)
      if (p.number > 0 && p.linked()) out.push_back({n, p.number});
  return out;
}

std::vector<int> switch_order(const topo::Fabric& fabric, const std::vector<topo::PortEnd>& endpoints) {
  const size_t n = endpoints.size();
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<topo::PortEnd> attach(n);
  for (size_t r = 0; r < n; ++r) attach[r] = routing::attached_switch_port(fabric, endpoints[r]);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return std::tie(attach[a].node, attach[a].port) < std::tie(attach[b].node, attach[b].port);
  });
  return order;
}

int stage_lower_bound(const topo::Fabric& fabric, const routing::CableIndex& cables, double cover_fraction) {
  // Tier = hops from the nearest HCA (leaf 1, spine 2, ...), by BFS from every CA.
  std::vector<int> tier(fabric.size(), -1);
  std::vector<topo::NodeId> queue;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    if (fabric.node(n).is_ca()) tier[n] = 0, queue.push_back(n);
  for (size_t i = 0; i < queue.size(); ++i)
    for (const auto& p : fabric.node(queue[i]).ports)
      if (p.linked() && tier[p.remote.node] < 0)
        tier[p.remote.node] = tier[queue[i]] + 1, queue.push_back(p.remote.node);
  int bound = 1;
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    if (!fabric.node(n).is_switch() || tier[n] < 1) continue;
    double up = 0, down = 0;
    for (const auto& p : fabric.node(n).ports) {
      if (!p.linked() || p.number == 0) continue;
      double cap = cables.edge(cables.out_edge({n, p.number})).capacity_gbps;
      if (tier[p.remote.node] > tier[n])
        up += cap;
      else if (tier[p.remote.node] < tier[n])
        down += cap;
    }
    if (down > 0) bound = std::max(bound, static_cast<int>(std::ceil(cover_fraction * up / down - 1e-9)));
  }
  return bound;
}

namespace {

// One connected part of the fabric: `reachable` of the cable directions lie in it.
PlanResult plan_island(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
                       const std::vector<topo::PortEnd>& endpoints, const PlanOptions& options, size_t reachable) {
  PlanResult result;
  result.coverage.assign(cables.size(), {});
  result.lower_bound = stage_lower_bound(fabric, cables, options.cover_fraction);
  const size_t n = endpoints.size();
  if (n < 2) {
    result.notes.push_back("fewer than two endpoints: nothing to plan");
    return result;
  }
  std::vector<int> order = switch_order(fabric, endpoints);
  std::vector<topo::PortEnd> attach(n);
  for (size_t r = 0; r < n; ++r) attach[r] = routing::attached_switch_port(fabric, endpoints[r]);
  // Endpoints per switch: the most any switch has (a fabric with one host short still
  // shifts by whole leaves).
  size_t per_switch = 1;
  for (size_t i = 0, run = 0; i < n; ++i) {
    run = (i > 0 && attach[order[i]].node == attach[order[i - 1]].node) ? run + 1 : 1;
    per_switch = std::max(per_switch, run);
  }
  std::vector<int> ks = shift_amounts(n, per_switch, options.max_candidates);

  std::vector<char> covered(cables.size(), 0);
  size_t unroutable = 0;
  std::string routing_error;
  while (result.covered < reachable && static_cast<int>(result.stages.size()) < options.max_stages) {
    Candidate best;
    for (int k : ks) {
      std::vector<PlannedFlow> flows(n);
      for (size_t i = 0; i < n; ++i) flows[i] = {order[i], order[(i + k) % n]};
      Candidate c = evaluate(cables, router, endpoints, flows, options.max_load);
      for (routing::EdgeId e = 0; e < c.load.size(); ++e)
        if (!covered[e] && c.load[e] >= options.cover_fraction - 1e-9) ++c.gain;
      if (c.unroutable > unroutable) unroutable = c.unroutable, routing_error = c.routing_error;
      if (c.gain > best.gain) best = std::move(c);
      if (best.gain == reachable - result.covered) break;  // covers all that is left
    }
    if (best.gain == 0) break;
    int stage = static_cast<int>(result.stages.size());
    for (routing::EdgeId e = 0; e < best.load.size(); ++e) {
      auto& cov = result.coverage[e];
      cov.best_load = std::max(cov.best_load, best.load[e]);
      if (!covered[e] && best.load[e] >= options.cover_fraction - 1e-9) {
        covered[e] = 1;
        cov.stage = stage;
        ++result.covered;
      }
    }
    result.stages.push_back(std::move(best.flows));
  }
  if (unroutable)
    result.notes.push_back(std::to_string(unroutable) + " of " + std::to_string(n) +
                           " flows of a candidate stage have no route, e.g.: " + routing_error);
  return result;
}

// Notes about the cable directions no stage covers.
void note_uncovered(PlanResult& result, const PlanOptions& options) {
  size_t unused = 0, short_of = 0;
  for (const auto& c : result.coverage)
    if (c.stage < 0) ++(c.best_load > 0 ? short_of : unused);
  const std::string pct = std::to_string(static_cast<int>(options.cover_fraction * 100)) + "%";
  if (unused)
    result.notes.push_back(std::to_string(unused) +
                           " cable directions carried no traffic in any candidate stage: no route "
                           "between the endpoints uses them (e.g. links towards an absent host's "
                           "slot, or parallel cables the routing engine leaves idle)");
  if (short_of)
    result.notes.push_back(std::to_string(short_of) + " cable directions were loaded but never to " + pct +
                           " (routes unbalanced for every candidate shift)");
}

}  // namespace

// Islands (the planes of a cluster of several subnets, or the parts of a split fabric) share no
// cable: each is planned over its own endpoints, and stage k of the job is stage k of every
// island at once, so one run covers every plane in the same stages and no flow leaves its plane.
PlanResult make_plan(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
                     const std::vector<topo::PortEnd>& endpoints, const PlanOptions& options) {
  const auto islands = fabric.islands();
  std::vector<uint32_t> island_of(fabric.size(), 0);
  for (uint32_t i = 0; i < islands.size(); ++i)
    for (topo::NodeId n : islands[i]) island_of[n] = i;
  std::vector<std::vector<int>> ranks(islands.size());  // island -> its ranks
  for (size_t r = 0; r < endpoints.size(); ++r) ranks[island_of[endpoints[r].node]].push_back(static_cast<int>(r));
  std::vector<size_t> directions(islands.size(), 0);
  for (const routing::Edge& e : cables.edges()) ++directions[island_of[e.from.node]];
  std::erase_if(ranks, [](const std::vector<int>& r) { return r.empty(); });
  if (ranks.size() <= 1) {
    PlanResult result = plan_island(fabric, cables, router, endpoints, options,
                                    ranks.empty() ? cables.size() : directions[island_of[endpoints[ranks[0][0]].node]]);
    note_uncovered(result, options);
    return result;
  }
  PlanResult result;
  result.coverage.assign(cables.size(), {});
  for (const std::vector<int>& members : ranks) {
    std::vector<topo::PortEnd> own;
    for (int r : members) own.push_back(endpoints[r]);
    PlanResult part =
        plan_island(fabric, cables, router, own, options, directions[island_of[endpoints[members[0]].node]]);
    result.lower_bound = std::max(result.lower_bound, part.lower_bound);
    if (result.stages.size() < part.stages.size()) result.stages.resize(part.stages.size());
    for (size_t k = 0; k < part.stages.size(); ++k)
      for (const PlannedFlow& f : part.stages[k]) result.stages[k].push_back({members[f.src], members[f.dst]});
    for (size_t e = 0; e < cables.size(); ++e) {
      if (part.coverage[e].stage < 0 && part.coverage[e].best_load <= 0) continue;
      result.coverage[e] = part.coverage[e];
    }
    result.covered += part.covered;
    for (std::string& note : part.notes)
      if (std::find(result.notes.begin(), result.notes.end(), note) == result.notes.end())
        result.notes.push_back(std::move(note));
  }
  note_uncovered(result, options);
  return result;
}

}  // namespace ibburn::planner
