#include "route_check/credit_loops.h"

#include <algorithm>
#include <utility>

namespace ibburn::route_check {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;

// The dependency graph in compressed rows: out-neighbours of channel c are
// to[first[c]..first[c+1]), dep[k] the walk's dependency behind to[k].
struct Graph {
  std::vector<uint32_t> first, to, dep;
};

Graph build(const RouteWalk& walk, size_t nodes) {
  Graph g;
  g.first.assign(nodes + 1, 0);
  for (const Dependency& d : walk.dependencies) ++g.first[d.from + 1];
  for (size_t i = 0; i < nodes; ++i) g.first[i + 1] += g.first[i];
  g.to.resize(walk.dependencies.size());
  g.dep.resize(walk.dependencies.size());
  std::vector<uint32_t> fill(g.first.begin(), g.first.end() - 1);
  for (uint32_t k = 0; k < walk.dependencies.size(); ++k) {
    const Dependency& d = walk.dependencies[k];
    g.to[fill[d.from]] = d.to;
    g.dep[fill[d.from]++] = k;
  }
  return g;
}

// Tarjan's strongly connected components, iteratively (a route through thousands of
// channels would overflow the stack recursively). component[v]: its set's number; sets of
// one channel (no cycle: a channel never depends on itself) get kUnset.
std::vector<uint32_t> cyclic_components(const Graph& g, size_t nodes, std::vector<std::vector<uint32_t>>& sets) {
  std::vector<uint32_t> index(nodes, kUnset), low(nodes, 0), component(nodes, kUnset);
  std::vector<char> on_stack(nodes, 0);
  std::vector<uint32_t> stack;
  std::vector<std::pair<uint32_t, uint32_t>> calls;  // (channel, next out-edge to look at)
  uint32_t counter = 0;
  for (uint32_t root = 0; root < nodes; ++root) {
    if (index[root] != kUnset || g.first[root] == g.first[root + 1]) continue;
    calls.emplace_back(root, g.first[root]);
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = 1;
    while (!calls.empty()) {
      auto& [v, next] = calls.back();
      if (next < g.first[v + 1]) {
        const uint32_t w = g.to[next++];
        if (index[w] == kUnset) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = 1;
          calls.emplace_back(w, g.first[w]);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const uint32_t done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
      if (low[done] != index[done]) continue;
      std::vector<uint32_t> set;
      uint32_t w = 0;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = 0;
        set.push_back(w);
      } while (w != done);
      if (set.size() < 2) continue;
      std::sort(set.begin(), set.end());
      for (uint32_t c : set) component[c] = static_cast<uint32_t>(sets.size());
      sets.push_back(std::move(set));
    }
  }
  return component;
}

}  // namespace

CreditLoopSearch find_credit_loops(const RouteWalk& walk, size_t edge_count) {
  CreditLoopSearch out;
  const size_t nodes = edge_count * static_cast<size_t>(walk.vl_count);
  const Graph g = build(walk, nodes);
  out.dependencies = walk.dependencies.size();
  std::vector<char> touched(nodes, 0);
  for (const Dependency& d : walk.dependencies) touched[d.from] = touched[d.to] = 1;
  out.channels = static_cast<size_t>(std::count(touched.begin(), touched.end(), 1));

  std::vector<std::vector<uint32_t>> sets;
  const std::vector<uint32_t> component = cyclic_components(g, nodes, sets);
  // Each set's shortest cycle through its first channel: breadth first inside the set until a
  // channel that depends back on it.
  std::vector<uint32_t> parent(nodes, kUnset);
  for (uint32_t s = 0; s < sets.size(); ++s) {
    const uint32_t start = sets[s].front();
    std::vector<uint32_t> queue{start};
    parent[start] = start;
    uint32_t closing = kUnset, last = kUnset;
    for (size_t i = 0; i < queue.size() && closing == kUnset; ++i) {
      const uint32_t v = queue[i];
      for (uint32_t k = g.first[v]; k < g.first[v + 1]; ++k) {
        const uint32_t w = g.to[k];
        if (w == start) {
          closing = g.dep[k], last = v;
          break;
        }
        if (component[w] == s && parent[w] == kUnset) parent[w] = v, queue.push_back(w);
      }
    }
    CreditLoop loop;
    for (uint32_t v = last; v != start; v = parent[v]) loop.cycle.push_back(v);
    loop.cycle.push_back(start);
    std::reverse(loop.cycle.begin(), loop.cycle.end());
    for (uint32_t v : queue) parent[v] = kUnset;
    loop.vl = walk.vl_of(start);
    loop.channels_involved = sets[s].size();
    loop.dlid = walk.dependencies[closing].dlid;
    loop.sl = walk.dependencies[closing].sl;
    out.loops.push_back(std::move(loop));
  }
  return out;
}

}  // namespace ibburn::route_check
