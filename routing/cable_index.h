#pragma once
// Directed cables ("edges"): one per linked port, meaning "out of this port towards its
// peer". Planning, simulation and localisation all count load per edge.
#include <cstdint>
#include <string>
#include <vector>

#include "topo/fabric.h"

namespace ibburn::routing {

using EdgeId = uint32_t;

struct Edge {
  topo::PortEnd from;  // egress port
  topo::PortEnd to;    // the peer's ingress port
  double capacity_gbps = 0;
};

class CableIndex {
 public:
  // `default_gbps` is used for links whose trained rate is unknown.
  CableIndex(const topo::Fabric& fabric, double default_gbps);
  const std::vector<Edge>& edges() const { return edges_; }
  size_t size() const { return edges_.size(); }
  const Edge& edge(EdgeId e) const { return edges_[e]; }
  // The edge leaving `from`; throws std::out_of_range when that port is not linked.
  EdgeId out_edge(topo::PortEnd from) const;
  bool has_out_edge(topo::PortEnd from) const;
  EdgeId reverse(EdgeId e) const { return out_edge(edges_[e].to); }
  // "a[p] -> b[q]" with node names.
  std::string describe(const topo::Fabric& fabric, EdgeId e) const;

 private:
  static constexpr EdgeId kNoEdge = UINT32_MAX;
  // Flat (node, port) -> edge table: routing looks edges up on every hop.
  size_t slot(topo::PortEnd p) const;
  std::vector<Edge> edges_;
  std::vector<size_t> first_slot_;  // per node: index of its port 0 in by_slot_
  std::vector<EdgeId> by_slot_;
};

}  // namespace ibburn::routing
