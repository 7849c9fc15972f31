#include "routing/port_groups.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ibburn::routing {
namespace {

// splitmix64: a well-spread 64-bit key per destination, so that a port's set of
// destinations is summed into a signature without keeping the set.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<PortGroup> equal_port_groups(const topo::Fabric& fabric, const CableIndex& cables, const Router& router) {
  std::vector<topo::NodeId> switches, destinations;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    if (fabric.node(n).is_switch()) switches.push_back(n);
  std::vector<char> is_destination(fabric.size(), 0);
  for (const Edge& e : cables.edges())
    if (fabric.node(e.from.node).is_ca() && fabric.node(e.to.node).is_switch()) is_destination[e.to.node] = 1;
  for (topo::NodeId n : switches)
    if (is_destination[n]) destinations.push_back(n);
  // Per edge: how many destinations it is a next hop towards, and two independent sums of
  // their keys; equal triples at one switch mean the same destination set.
  struct Signature {
    uint64_t count = 0, a = 0, b = 0;
  };
  std::vector<Signature> sig(cables.size());
  std::vector<Hop> hops;
  for (topo::NodeId d : destinations) {
    const uint64_t ka = mix(d), kb = mix(ka ^ 0x5bd1e995ULL);
    for (topo::NodeId s : switches) {
      if (router.split_hops(s, d, hops) <= 0) continue;
      for (const Hop& h : hops) {
        Signature& g = sig[h.edge];
        ++g.count, g.a += ka, g.b += kb;
      }
    }
  }
  std::map<std::tuple<topo::NodeId, uint64_t, uint64_t, uint64_t>, std::vector<EdgeId>> by_key;
  for (EdgeId e = 0; e < cables.size(); ++e)
    if (sig[e].count) by_key[{cables.edge(e).from.node, sig[e].count, sig[e].a, sig[e].b}].push_back(e);
  std::vector<PortGroup> out;
  for (auto& [key, edges] : by_key) {
    if (edges.size() < 2) continue;
    std::sort(edges.begin(), edges.end(),
              [&](EdgeId x, EdgeId y) { return cables.edge(x).from.port < cables.edge(y).from.port; });
    out.push_back({std::get<0>(key), std::move(edges)});
  }
  std::sort(out.begin(), out.end(), [&](const PortGroup& x, const PortGroup& y) {
    return std::pair(x.node, cables.edge(x.edges.front()).from.port) <
           std::pair(y.node, cables.edge(y.edges.front()).from.port);
  });
  return out;
}

}  // namespace ibburn::routing
