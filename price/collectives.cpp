#include "price/collectives.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ibburn::price {

const char* to_string(Collective c) {
  switch (c) {
    case Collective::RingAllReduce: return "ring all-reduce";
    case Collective::TreeAllReduce: return "tree all-reduce";
    case Collective::AllToAll: return "all-to-all";
  }
  return "?";
}

const char* key(Collective c) {
  switch (c) {
    case Collective::RingAllReduce: return "ring_allreduce";
    case Collective::TreeAllReduce: return "tree_allreduce";
    case Collective::AllToAll: return "alltoall";
  }
  return "?";
}

LoadBuilder::LoadBuilder(const PriceFabric& fabric) : fabric_(fabric), load_(fabric.cables().size(), 0.0) {}

void LoadBuilder::add_edge(routing::EdgeId e, double units) {
  if (load_[e] == 0.0) touched_.push_back(e);
  load_[e] += units;
  if (load_[e] == 0.0) load_[e] = 1e-300;  // still touched
}

void LoadBuilder::add(topo::PortEnd src, topo::PortEnd dst, double units, bool skip_first) {
  if (units <= 0 || src == dst) return;
  if (fabric_.adaptive()) {
    fabric_.router().route_split(src, dst, route_);
    for (size_t i = skip_first ? 1 : 0; i < route_.edges.size(); ++i)
      add_edge(route_.edges[i].first, units * route_.edges[i].second);
    if (route_.split()) splits_[route_.to][route_.from] += units;
    return;
  }
  path_.clear();
  fabric_.router().route(src, dst, path_);
  for (size_t i = skip_first ? 1 : 0; i < path_.size(); ++i) add_edge(path_[i].first, units * path_[i].second);
}

void LoadBuilder::add_hosts(HostId a, HostId b, size_t rail, double units) {
  const PriceHost& ha = fabric_.hosts()[a];
  const PriceHost& hb = fabric_.hosts()[b];
  auto valid_rails = [](const PriceHost& h) {
    std::vector<size_t> r;
    for (size_t i = 0; i < h.rails.size(); ++i)
      if (h.rails[i].valid()) r.push_back(i);
    return r;
  };
  if (ha.rails[rail].valid() && hb.rails[rail].valid()) return add(ha.rails[rail], hb.rails[rail], units);
  const std::vector<size_t> from = ha.rails[rail].valid() ? std::vector<size_t>{rail} : valid_rails(ha);
  const std::vector<size_t> to = hb.rails[rail].valid() ? std::vector<size_t>{rail} : valid_rails(hb);
  if (from.empty() || to.empty()) return;  // a host with no port: never placed
  // Sender's ports by turn, each to the receiver's port on the same rail when it has one.
  const size_t n = std::max(from.size(), to.size());
  for (size_t i = 0; i < n; ++i) {
    const size_t s = from[i % from.size()];
    const size_t d = hb.rails[s].valid() && to.size() > 1 ? s : to[i % to.size()];
    add(ha.rails[s], hb.rails[d], units / static_cast<double>(n));
  }
}

EdgeLoads LoadBuilder::finish() {
  for (const auto& [to, froms] : splits_) {
    std::vector<std::pair<topo::NodeId, double>> entries(froms.begin(), froms.end());
    spread_.spread(fabric_.router(), to, entries);
    for (const auto& c : spread_.carried()) add_edge(c.edge, c.gbps);
  }
  splits_.clear();
  std::sort(touched_.begin(), touched_.end());
  EdgeLoads out;
  out.reserve(touched_.size());
  for (routing::EdgeId e : touched_) out.emplace_back(e, load_[e] < 1e-200 ? 0.0 : load_[e]), load_[e] = 0.0;
  touched_.clear();
  return out;
}

namespace {

void in_order(size_t lo, size_t hi, size_t parent, std::vector<std::pair<size_t, size_t>>& out) {
  if (lo >= hi) return;
  const size_t mid = lo + (hi - lo) / 2;
  if (parent != SIZE_MAX) out.emplace_back(parent, mid);
  in_order(lo, mid, mid, out);
  in_order(mid + 1, hi, mid, out);
}

// All-to-all: per rail, per source leaf, each destination port once, weighted by the senders
// under that leaf; the senders' own cables are counted here.
void alltoall(const PriceFabric& fabric, const std::vector<HostId>& hosts, LoadBuilder& b) {
  const size_t n = hosts.size();
  const size_t rails = fabric.rails().size();
  const auto& hs = fabric.hosts();
  for (size_t r = 0; r < rails; ++r) {
    // Hosts that lack the rail take the generic path (add_hosts), pair by pair.
    std::map<topo::NodeId, std::vector<HostId>> by_leaf;
    std::vector<HostId> lacking;
    for (HostId h : hosts) {
      if (hs[h].rails[r].valid())
        by_leaf[fabric.cables().edge(fabric.cables().out_edge(hs[h].rails[r])).to.node].push_back(h);
      else
        lacking.push_back(h);
    }
    for (HostId h : lacking)
      for (HostId g : hosts) {
        if (g == h) continue;
        b.add_hosts(h, g, r, 1.0);
        if (hs[g].rails[r].valid()) b.add_hosts(g, h, r, 1.0);  // two lacking: (g, h) is g's turn
      }
    for (const auto& [leaf, senders] : by_leaf) {
      for (HostId s : senders)
        b.add_edge(fabric.cables().out_edge(hs[s].rails[r]),
                   static_cast<double>(n - 1 - lacking.size()));  // to those with the rail
      for (HostId d : hosts) {
        if (!hs[d].rails[r].valid()) continue;
        double count = static_cast<double>(senders.size());
        HostId rep = senders.front();
        if (std::find(senders.begin(), senders.end(), d) != senders.end()) {
          count -= 1;
          if (rep == d) {
            if (senders.size() < 2) continue;
            rep = senders[1];
          }
        }
        b.add(hs[rep].rails[r], hs[d].rails[r], count, true);
      }
    }
  }
}

}  // namespace

std::vector<std::pair<size_t, size_t>> double_binary_tree(size_t n) {
  std::vector<std::pair<size_t, size_t>> first, out;
  in_order(0, n, SIZE_MAX, first);
  out = first;
  for (auto [p, c] : first) out.emplace_back((p + 1) % n, (c + 1) % n);
  return out;
}

EdgeLoads collective_loads(const PriceFabric& fabric, Collective c, const std::vector<HostId>& hosts, LoadBuilder& b) {
  const size_t n = hosts.size(), rails = fabric.rails().size();
  if (n < 2) return b.finish();
  switch (c) {
    case Collective::RingAllReduce:
      for (size_t r = 0; r < rails; ++r)
        for (size_t i = 0; i < n; ++i) b.add_hosts(hosts[i], hosts[(i + 1) % n], r, 1.0);
      break;
    case Collective::TreeAllReduce: {
      const auto edges = double_binary_tree(n);
      for (size_t r = 0; r < rails; ++r)
        for (auto [p, ch] : edges) b.add_hosts(hosts[p], hosts[ch], r, 1.0), b.add_hosts(hosts[ch], hosts[p], r, 1.0);
      break;
    }
    case Collective::AllToAll: alltoall(fabric, hosts, b); break;
  }
  return b.finish();
}

CollectiveTime collective_time(Collective c, size_t n, double unit_time, double bytes) {
  CollectiveTime t;
  if (n < 2) return t;
  const double gbit = bytes * 8 / 1e9, nd = static_cast<double>(n);
  if (!std::isfinite(unit_time)) {
    t.seconds = t.step_seconds = std::numeric_limits<double>::infinity();
    return t;
  }
  switch (c) {
    case Collective::RingAllReduce:  // each hop carries 2(n-1)/n of the data in 2(n-1) steps
      t.seconds = 2 * (nd - 1) / nd * gbit * unit_time;
      t.step_seconds = gbit / nd * unit_time;
      t.busbw_gbps = unit_time > 0 ? 1 / unit_time : 0;
      break;
    case Collective::TreeAllReduce:  // each tree carries half the data up and down, pipelined
      t.seconds = t.step_seconds = gbit / 2 * unit_time;
      t.busbw_gbps = gbit / t.seconds * 2 * (nd - 1) / nd;
      break;
    case Collective::AllToAll:  // each pair moves 1/n of the data
      t.seconds = t.step_seconds = gbit / nd * unit_time;
      t.busbw_gbps = gbit / t.seconds * (nd - 1) / nd;
      break;
  }
  return t;
}

}  // namespace ibburn::price
