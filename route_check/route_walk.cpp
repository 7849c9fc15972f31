#include "route_check/route_walk.h"

#include <algorithm>
#include <array>
#include <climits>

namespace ibburn::route_check {

int vl_count_of(const VlTables* vls) {
  if (!vls) return 1;
  // The SLs routes are put on: tables name VLs for all 16, most of them never used (ibsim's
  // default maps SL 8-14 to VL 8-14 beyond its 8 operational VLs).
  std::array<bool, kSls> used{};
  used[vls->default_sl & 15] = true;
  for (const auto& [pair, sl] : vls->path_sl) used[sl & 15] = true;
  int top = 0;
  for (const auto& [guid, t] : vls->by_switch_guid)
    for (const auto& row : t.by_pair)
      for (int sl = 0; sl < kSls; ++sl)
        if (used[static_cast<size_t>(sl)] && row[static_cast<size_t>(sl)] < 15)  // VL15: management only
          top = std::max<int>(top, row[static_cast<size_t>(sl)]);
  return top + 1;
}

namespace {

constexpr ChannelId kNoChannel = UINT32_MAX;

struct Source {
  topo::NodeId sw;
  int in_port;
  uint16_t slid;
};

}  // namespace

RouteWalk walk_routes(const topo::Fabric& fabric, const routing::CableIndex& cables, const LidOwners& owners,
                      const RouteTables& tables) {
  RouteWalk out;
  const VlTables* vls = tables.vls();
  out.vl_count = tables.vl_count();
  const size_t n = fabric.size();

  // Sources: every cabled HCA port with a LID. Counting VLs, each walks itself (its SL and
  // ingress port choose the VL); on one VL only the switches matter.
  std::vector<Source> sources;
  std::vector<char> source_switch(n, 0);
  for (topo::NodeId id = 0; id < n; ++id) {
    const topo::Node& node = fabric.node(id);
    if (node.is_switch()) continue;
    for (const topo::Port& p : node.ports)
      if (p.number > 0 && p.lid != 0 && p.linked() && fabric.node(p.remote.node).is_switch()) {
        if (!vls && source_switch[p.remote.node]) continue;
        source_switch[p.remote.node] = 1;
        sources.push_back({p.remote.node, p.remote.port, p.lid});
      }
  }
  std::vector<topo::NodeId> switches;
  int max_port = 0;
  for (topo::NodeId id = 0; id < n; ++id)
    if (fabric.node(id).is_switch()) switches.push_back(id), max_port = std::max(max_port, fabric.node(id).num_ports);

  const std::vector<int> tier = fabric.tiers();
  bool low = false, high = false;
  for (topo::NodeId s : switches) low = low || tier[s] == 1, high = high || tier[s] >= 2;
  out.tree = low && high;
  if (out.tree) out.turns.assign(n, {}), out.detours.assign(n, {});
  std::vector<std::vector<topo::NodeId>> neighbours(n);  // switch to switch, for the tree's distances
  if (out.tree)
    for (const routing::Edge& e : cables.edges())
      if (fabric.node(e.from.node).is_switch() && fabric.node(e.to.node).is_switch())
        neighbours[e.from.node].push_back(e.to.node);

  // Destinations grouped by the switch their HCA hangs from, so the tree's distances are one
  // breadth-first walk per group.
  struct Destination {
    topo::NodeId sw;
    uint16_t lid;
  };
  std::vector<Destination> dests;
  for (uint16_t lid : owners.ca_lids) {
    const topo::Port& p = fabric.port(owners.owner(lid));
    if (p.linked() && fabric.node(p.remote.node).is_switch()) dests.push_back({p.remote.node, lid});
  }
  std::stable_sort(dests.begin(), dests.end(), [](const Destination& a, const Destination& b) { return a.sw < b.sw; });

  const size_t sl_slots = vls ? kSls : 1;
  const size_t channels = cables.size() * static_cast<size_t>(out.vl_count);
  std::vector<uint32_t> state_dest(channels * sl_slots, 0), state_walk(channels * sl_slots, 0);
  std::vector<uint32_t> sw_dest(n, 0), dead_dest(n, 0), turn_dest(n, 0);
  const size_t per_channel = static_cast<size_t>(max_port + 1) * static_cast<size_t>(out.vl_count);
  std::vector<uint64_t> dep_seen((channels * per_channel + 63) / 64, 0);
  std::vector<int> dist(n, INT_MAX);
  std::vector<topo::NodeId> visited, frontier;
  uint32_t dest_stamp = 0, walk_stamp = 0;

  const auto dead = [&](topo::NodeId sw, uint16_t lid, DeadEnd::Why why, int port, topo::PortEnd landed) {
    if (dead_dest[sw] == dest_stamp) return;
    dead_dest[sw] = dest_stamp;
    out.dead_ends.push_back({sw, lid, why, port, landed});
  };
  const auto depend = [&](ChannelId from, const RouteTables::Step& s, uint16_t lid, uint8_t sl) {
    const size_t bit = from * per_channel + static_cast<size_t>(s.port) * static_cast<size_t>(out.vl_count) +
                       s.channel % static_cast<uint32_t>(out.vl_count);
    uint64_t& word = dep_seen[bit / 64];
    const uint64_t mask = uint64_t{1} << (bit % 64);
    if (word & mask) return;
    word |= mask;
    out.dependencies.push_back({from, s.channel, lid, sl});
  };

  topo::NodeId bfs_from = topo::kNoNode;
  for (const Destination& d : dests) {
    ++dest_stamp;
    const topo::PortEnd target = owners.owner(d.lid);
    visited.clear();
    for (const Source& src : sources) {
      ++walk_stamp;
      const uint8_t sl = tables.sl(src.slid, d.lid);
      topo::NodeId at = src.sw;
      int in_port = src.in_port;
      ChannelId prev = kNoChannel;
      while (true) {
        ++out.steps;
        const RouteTables::Step s = tables.step(at, in_port, d.lid, sl);
        if (s.next == RouteTables::Next::NoEntry) {
          dead(at, d.lid, DeadEnd::Why::NoEntry, 0, {});
          break;
        }
        if (s.next == RouteTables::Next::ToSwitch) {
          dead(at, d.lid, DeadEnd::Why::WrongPort, 0, {at, 0});
          break;
        }
        if (s.next == RouteTables::Next::Unlinked) {
          dead(at, d.lid, DeadEnd::Why::UnlinkedPort, s.port, {});
          break;
        }
        if (sw_dest[at] != dest_stamp) sw_dest[at] = dest_stamp, visited.push_back(at);
        if (prev != kNoChannel) depend(prev, s, d.lid, sl);
        const topo::PortEnd to = cables.edge(s.edge).to;
        if (!tables.to_switch(s.edge)) {
          if (to != target) dead(at, d.lid, DeadEnd::Why::WrongPort, s.port, to);
          break;
        }
        const size_t state = s.channel * sl_slots + (vls ? sl : 0);
        if (state_dest[state] == dest_stamp) {
          if (state_walk[state] == walk_stamp) dead(to.node, d.lid, DeadEnd::Why::Loop, 0, {});
          break;  // joins a route walked before: the rest is known
        }
        state_dest[state] = dest_stamp;
        state_walk[state] = walk_stamp;
        prev = s.channel;
        in_port = to.port;
        at = to.node;
      }
    }
    if (!out.tree) continue;
    if (bfs_from != d.sw) {  // hops from every switch to the destination's
      bfs_from = d.sw;
      std::fill(dist.begin(), dist.end(), INT_MAX);
      dist[d.sw] = 0;
      frontier.assign(1, d.sw);
      for (size_t i = 0; i < frontier.size(); ++i)
        for (topo::NodeId next : neighbours[frontier[i]])
          if (dist[next] == INT_MAX) dist[next] = dist[frontier[i]] + 1, frontier.push_back(next);
    }
    // Each switch the routes reach: its next hop no closer (a detour), and, where it comes down
    // into that next hop, whether the next hop goes up or sideways again (a turn).
    for (topo::NodeId x : visited) {
      const RouteTables::Step s = tables.step(x, 0, d.lid, 0);
      if (s.next != RouteTables::Next::Ok || !tables.to_switch(s.edge)) continue;
      const topo::NodeId y = cables.edge(s.edge).to.node;
      if (dist[x] != INT_MAX && dist[y] != INT_MAX && dist[y] + 1 > dist[x]) {
        SwitchTally& t = out.detours[x];
        if (t.count++ == 0) t.example_lid = d.lid, t.extra_hops = dist[y] + 1 - dist[x];
      }
      if (tier[y] >= tier[x] || y == d.sw || turn_dest[y] == dest_stamp) continue;
      const RouteTables::Step up = tables.step(y, 0, d.lid, 0);
      if (up.next != RouteTables::Next::Ok) continue;
      const topo::NodeId z = cables.edge(up.edge).to.node;
      if (!tables.to_switch(up.edge) || tier[z] < tier[y]) continue;
      turn_dest[y] = dest_stamp;
      SwitchTally& t = out.turns[y];
      if (t.count++ == 0) t.example_lid = d.lid, t.in = s.edge, t.out = up.edge;
    }
  }
  std::sort(out.dead_ends.begin(), out.dead_ends.end(),
            [](const DeadEnd& a, const DeadEnd& b) { return a.sw != b.sw ? a.sw < b.sw : a.dlid < b.dlid; });
  return out;
}

RouteTables::RouteTables(const topo::Fabric& fabric, const routing::CableIndex& cables,
                         const routing::ForwardingTables& lfts, const VlTables* vls)
    : fabric_(fabric),
      cables_(cables),
      vls_(vls),
      vl_count_(vl_count_of(vls)),
      switch_index_(fabric.size(), kNotSwitch),
      has_table_(fabric.size(), 0),
      sl2vl_(fabric.size(), nullptr),
      to_switch_(cables.size(), 0) {
  std::vector<const std::vector<uint8_t>*> rows;
  const auto tables = lfts.by_node(fabric);
  const std::vector<char> shared = routing::guid_shared(fabric);
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    const topo::Node& node = fabric.node(n);
    if (!node.is_switch()) continue;
    switch_index_[n] = static_cast<uint32_t>(switches_++);
    rows.push_back(tables[n]);
    if (rows.back()) has_table_[n] = 1, lids_ = std::max(lids_, rows.back()->size());
    if (vls && !shared[n])
      if (auto v = vls->by_switch_guid.find(node.guid); v != vls->by_switch_guid.end()) sl2vl_[n] = &v->second;
  }
  // Transposed in tiles, so both the reads and the writes stay in cache.
  by_lid_.assign(lids_ * switches_, routing::ForwardingTables::kNoRoute);
  constexpr size_t kTile = 64;
  for (size_t s0 = 0; s0 < switches_; s0 += kTile)
    for (size_t l0 = 0; l0 < lids_; l0 += kTile)
      for (size_t s = s0; s < std::min(switches_, s0 + kTile); ++s) {
        if (!rows[s]) continue;
        const std::vector<uint8_t>& row = *rows[s];
        for (size_t l = l0; l < std::min(row.size(), l0 + kTile); ++l) by_lid_[l * switches_ + s] = row[l];
      }
  for (routing::EdgeId e = 0; e < cables.size(); ++e) to_switch_[e] = fabric.node(cables.edge(e).to.node).is_switch();
}

RouteTables::Step RouteTables::step(topo::NodeId sw, int in_port, uint16_t dlid, uint8_t sl) const {
  const int port = dlid < lids_ ? by_lid_[dlid * switches_ + switch_index_[sw]] : routing::ForwardingTables::kNoRoute;
  if (port == routing::ForwardingTables::kNoRoute) return {Next::NoEntry};
  if (port == 0) return {Next::ToSwitch, 0};
  if (!cables_.has_out_edge({sw, port})) return {Next::Unlinked, port};
  const routing::EdgeId e = cables_.out_edge({sw, port});
  const int vl = sl2vl_[sw] ? sl2vl_[sw]->vl(in_port, port, sl) % vl_count_ : 0;
  return {Next::Ok, port, e, e * static_cast<uint32_t>(vl_count_) + static_cast<uint32_t>(vl)};
}

std::vector<ChannelId> RouteTables::trace(topo::PortEnd src, uint16_t dlid) const {
  std::vector<ChannelId> out;
  const topo::Port& p = fabric_.port(src);
  if (!p.linked() || !fabric_.node(p.remote.node).is_switch()) return out;
  const uint8_t sl = this->sl(p.lid, dlid);
  topo::NodeId at = p.remote.node;
  int in_port = p.remote.port;
  for (size_t hops = 0; hops <= switches_; ++hops) {
    const Step s = step(at, in_port, dlid, sl);
    if (s.next != Next::Ok) break;
    out.push_back(s.channel);
    const topo::PortEnd to = cables_.edge(s.edge).to;
    if (!to_switch_[s.edge]) break;
    in_port = to.port;
    at = to.node;
  }
  return out;
}

}  // namespace ibburn::route_check
