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

#include "routing/cable_index.h"
#include "topo/fabric.h"

namespace ibburn::routing {

using PathShares = std::vector<std::pair<EdgeId, double>>;

class RoutingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One step of a split towards a switch: the edge, the node it leads to, and the fraction of
// the traffic that reached the edge's source node which takes it.
struct Hop {
  EdgeId edge;
  topo::NodeId next;
  double fraction;
};

// A route in two parts: `edges` with their shares, and, when `to` is set, the split of the
// whole flow from switch `from` to switch `to` (Router::split_hops()). Flows towards the same
// switch share that split, so the fluid model spreads their traffic together instead of
// keeping one path list per flow.
struct SplitRoute {
  static constexpr topo::NodeId kNone = UINT32_MAX;
  PathShares edges;
  topo::NodeId from = kNone, to = kNone;
  bool split() const { return to != kNone; }
};

class Router {
 public:
  virtual ~Router() = default;
  // Appends to `out` every edge the flow src -> dst uses with its share of the flow's
  // traffic (1.0 on a single static path). Throws RoutingError when there is no route.
  virtual void route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const = 0;
  // The same route as a SplitRoute (replacing `out`); by default every edge explicit.
  virtual void route_split(topo::PortEnd src, topo::PortEnd dst, SplitRoute& out) const;
  // For routers whose routes split: the hops out of `at` towards switch `to`, each one step
  // closer (so a node's traffic is complete once the farther levels are spread). Returns
  // `at`'s distance in hops, -1 when `to` is unreachable; 0 and no hops at `to`.
  virtual int split_hops(topo::NodeId at, topo::NodeId to, std::vector<Hop>& out) const;
};

// Spreads traffic entering a router's split towards one switch over its hops, level by
// level, and keeps what each hop carried. Scratch space is reused between calls.
//
// With `closed` edges (adaptive routing around full links) a node sends nothing over a
// closed hop and weighs each open hop by the share of its paths still open: a hop's fraction
// becomes fraction x open(next) / open(node), where open(v) is the share of v's paths to the
// destination that avoid every closed edge (1 at the destination). A node with no open path
// passes nothing on; blocked() says so. Without closed edges the fractions are the router's.
class SplitSpread {
 public:
  struct Carried {
    EdgeId edge;
    topo::NodeId next;
    double gbps;  // or any unit the entries are in
  };
  // `entries`: (node, traffic) pairs entering the split; a node may repeat. Throws
  // RoutingError when an entry cannot reach `to`.
  // `closed`: by EdgeId, nonzero for an edge no more traffic may take (null: none).
  void spread(const Router& router, topo::NodeId to, const std::vector<std::pair<topo::NodeId, double>>& entries,
              const std::vector<char>* closed = nullptr);
  // After spread() with closed edges: whether `node` (an entry) has no open path left.
  bool blocked(topo::NodeId node) const { return node < open_.size() && open_[node] <= 0; }
  // The nodes that passed traffic on, farthest first, each with its hops' range in carried().
  struct Visit {
    topo::NodeId node;
    size_t begin, end;
  };
  const std::vector<Visit>& visits() const { return visits_; }
  const std::vector<Carried>& carried() const { return carried_; }

 private:
  std::vector<double> traffic_;                    // by node, zero outside a spread
  std::vector<char> seen_;                         // by node
  std::vector<double> open_;                       // by node: share of its paths open (1 outside a spread)
  std::vector<std::pair<size_t, size_t>> hop_at_;  // by node: its hops' range in all_hops_
  std::vector<Hop> all_hops_;
  std::vector<topo::NodeId> last_nodes_;           // the previous spread's nodes, to reset open_
  std::vector<std::vector<topo::NodeId>> levels_;  // by distance
  std::vector<Visit> visits_;
  std::vector<Carried> carried_;
  std::vector<Hop> hops_;
};

// Linear forwarding tables: switch node GUID -> out port indexed by destination LID
// (kNoRoute where the table has no entry).
struct ForwardingTables {
  static constexpr uint8_t kNoRoute = 255;
  std::unordered_map<uint64_t, std::vector<uint8_t>> by_switch_guid;
  size_t by_directed_route = 0;  // read live: the switches asked by directed route, silent by LID
  // Each node's table: null for CAs, for switches without one, and for switches whose GUID
  // another node shares (a table keyed by GUID cannot say which of them it belongs to).
  std::vector<const std::vector<uint8_t>*> by_node(const topo::Fabric& fabric) const;
};

// Per node, whether another node of the fabric has its GUID (duplicate_guid).
std::vector<char> guid_shared(const topo::Fabric& fabric);

class LftRouter : public Router {
 public:
  LftRouter(const topo::Fabric& fabric, const CableIndex& cables, const ForwardingTables& lfts);
  void route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const override;

 private:
  const topo::Fabric& fabric_;
  const CableIndex& cables_;
  std::vector<const std::vector<uint8_t>*> lft_by_node_;  // indexed by NodeId
};

// Not thread-safe: distances are built lazily, and route() spreads in scratch space.
class AdaptiveRouter : public Router {
 public:
  AdaptiveRouter(const topo::Fabric& fabric, const CableIndex& cables);
  ~AdaptiveRouter() override;
  void route(topo::PortEnd src, topo::PortEnd dst, PathShares& out) const override;
  void route_split(topo::PortEnd src, topo::PortEnd dst, SplitRoute& out) const override;
  int split_hops(topo::NodeId at, topo::NodeId to, std::vector<Hop>& out) const override;

 private:
  struct ToDestination;  // distances and path counts towards one switch, built lazily
  const ToDestination& towards(topo::NodeId dst_switch) const;

  const topo::Fabric& fabric_;
  const CableIndex& cables_;
  // Switches are numbered densely so that per-destination tables hold switches only.
  std::vector<uint32_t> switch_index_;  // by NodeId; kNotSwitch for HCAs
  struct Link {
    EdgeId edge;
    topo::NodeId next;
    uint32_t next_index;  // the next switch's index
  };
  std::vector<std::vector<Link>> adj_;                           // switch-to-switch, per switch index
  mutable std::vector<std::unique_ptr<ToDestination>> towards_;  // by switch index
  mutable SplitSpread spread_;
  // The last switch pair's split path: flows in switch order (the planner's shifts) come in
  // runs between the same two switches.
  mutable std::pair<topo::NodeId, topo::NodeId> last_pair_{SplitRoute::kNone, SplitRoute::kNone};
  mutable PathShares last_split_;
};

// The switch an HCA port is cabled to, and the edge from the HCA into it.
topo::PortEnd attached_switch_port(const topo::Fabric& fabric, topo::PortEnd hca_port);

}  // namespace ibburn::routing
