#pragma once
// Routing models: which cables a flow between two HCA ports loads, and with what share of
// its traffic. LftRouter follows the switches' linear forwarding tables (what the fabric
// really does with static routing); AdaptiveRouter splits traffic evenly over all shortest
// paths (the model of adaptive routing the public planner assumes).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "plan/cable_index.h"
#include "topo/fabric.h"

namespace ibburn::plan {

using PathShares = std::vector<std::pair<EdgeId, double>>;

class RoutingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Router {
 public:
  virtual ~Router() = default;
  // Appends to `out` every edge the flow src -> dst uses with its share of the flow's
  // traffic (1.0 on a single static path). Throws RoutingError when there is no route.
  virtual void route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const = 0;
};

// Linear forwarding tables: switch node GUID -> out port indexed by destination LID
// (kNoRoute where the table has no entry).
struct ForwardingTables {
  static constexpr uint8_t kNoRoute = 255;
  std::unordered_map<uint64_t, std::vector<uint8_t>> by_switch_guid;
};

class LftRouter : public Router {
 public:
  LftRouter(const topo::Fabric& fabric, const CableIndex& cables, const ForwardingTables& lfts);
  void route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const override;

 private:
  const topo::Fabric& fabric_;
  const CableIndex& cables_;
  std::vector<const std::vector<uint8_t>*> lft_by_node_;  // indexed by NodeId
};

class AdaptiveRouter : public Router {
 public:
  AdaptiveRouter(const topo::Fabric& fabric, const CableIndex& cables);
  ~AdaptiveRouter() override;
  void route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const override;

 private:
  struct ToDestination;  // distances and path counts towards one switch, built lazily
  const ToDestination& towards(topo::NodeId dst_switch) const;
  PathShares switch_shares(topo::NodeId src_switch, topo::NodeId dst_switch) const;

  const topo::Fabric& fabric_;
  const CableIndex& cables_;
  // Switch-to-switch adjacency: per node, (edge, next node).
  std::vector<std::vector<std::pair<EdgeId, topo::NodeId>>> adj_;
  mutable std::unordered_map<topo::NodeId, std::unique_ptr<ToDestination>> cache_;
  // Switch-to-switch shares, memoised: every HCA pair behind the same two switches shares
  // them. Bounded, since a big fabric has many switch pairs.
  mutable std::unordered_map<uint64_t, PathShares> pair_cache_;
};

// The switch an HCA port is cabled to, and the edge from the HCA into it.
topo::PortEnd attached_switch_port(const topo::Fabric& fabric, topo::PortEnd hca_port);

}  // namespace ibburn::plan
