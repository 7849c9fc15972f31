#pragma once
// NCCL's traffic shapes over a job's hosts on a rail-optimised cluster, as loads on the cables
// (pure). Every GPU's rank sends on its own rail's HCA, so each rail carries its own copy of the
// shape, all rails at once:
//   ring all-reduce: host i to host i+1 (the placement's order, wrapping), one unit each;
//   tree all-reduce: NCCL's double binary tree over the hosts, each tree edge both ways, one
//     unit (half the data) per tree;
//   all-to-all: every ordered pair of hosts, one unit each, summed per source leaf and
//     destination port, so its cost grows with leaves x hosts, not hosts squared.
// A host without a rail's port (its cable down) sends and receives that rail's share over its
// other ports, as NCCL does with a NIC gone; where that share then crosses to another rail's
// switches is not modelled (docs/price.md).
//
// A load is in units per cable direction; step_time.h turns loads over capacities into the
// time of one unit, and collective_time() below into NCCL's bus bandwidth.
#include <map>
#include <utility>
#include <vector>

#include "price/price_fabric.h"

namespace ibburn::price {

enum class Collective { RingAllReduce, TreeAllReduce, AllToAll };
inline constexpr Collective kCollectives[] = {Collective::RingAllReduce, Collective::TreeAllReduce,
                                              Collective::AllToAll};
const char* to_string(Collective c);  // "ring all-reduce", "tree all-reduce", "all-to-all"
const char* key(Collective c);        // "ring_allreduce", "tree_allreduce", "alltoall"

// Sparse, by edge, ascending.
using EdgeLoads = std::vector<std::pair<routing::EdgeId, double>>;

// Accumulates routed units; reuse one across placements (its scratch is the fabric's size).
class LoadBuilder {
 public:
  explicit LoadBuilder(const PriceFabric& fabric);
  // `units` from one port to another along the router's route; `skip_first` leaves out the
  // route's first edge (the sender's own cable, counted by the caller).
  void add(topo::PortEnd src, topo::PortEnd dst, double units, bool skip_first = false);
  void add_edge(routing::EdgeId e, double units);
  // Host a's rail r to host b's rail r, over the hosts' other ports where one lacks r.
  void add_hosts(HostId a, HostId b, size_t rail, double units);
  // Spreads the pending splits and returns the loads; the builder is empty again.
  EdgeLoads finish();

 private:
  const PriceFabric& fabric_;
  std::vector<double> load_;
  std::vector<routing::EdgeId> touched_;
  std::map<topo::NodeId, std::map<topo::NodeId, double>> splits_;  // to -> from -> units
  routing::SplitRoute route_;
  routing::PathShares path_;
  routing::SplitSpread spread_;
};

EdgeLoads collective_loads(const PriceFabric& fabric, Collective c, const std::vector<HostId>& hosts,
                           LoadBuilder& builder);

// The double binary tree's edges (parent, child) as positions 0..n-1 in the hosts' order: the
// first tree is a balanced in-order tree, the second the same shifted by one position, so a
// host inside one tree is (for most hosts) a leaf of the other, as in NCCL.
std::vector<std::pair<size_t, size_t>> double_binary_tree(size_t n);

struct CollectiveTime {
  double busbw_gbps = 0;    // NCCL's bus bandwidth (docs/price.md)
  double seconds = 0;       // the whole collective over `bytes` per GPU
  double step_seconds = 0;  // one step: a ring's step (S/n per hop), a tree's or all-to-all's whole
};
// From the time of one unit (step_time.h: seconds per gigabit of one unit, the slowest cable's
// load over its rate), for `n` hosts and `bytes` per GPU. Infinite unit time: zero bandwidth.
CollectiveTime collective_time(Collective c, size_t n, double unit_time, double bytes);

}  // namespace ibburn::price
