#pragma once
// The fabric as the pricing sees it (pure): hosts, each with one HCA port per rail (the HCA's
// device name across hosts: "mlx5_3", "mlx5_3:2" for a second port), the tier of every node
// (HCAs 0, leaves 1, counted up), and the cables that are each other's equals (a group):
// the up cables out of one switch, the down cables into one switch. Adaptive routing spreads
// a group's traffic over its cables by their rates; a subnet manager moves a dead cable's
// routes onto the rest of its group.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::price {

using HostId = uint32_t;
using GroupId = uint32_t;
inline constexpr GroupId kNoGroup = UINT32_MAX;

struct PriceHost {
  std::string name;                   // "host001" of "host001 mlx5_0"
  std::vector<topo::PortEnd> rails;   // by rail; invalid where the host has no cabled port
  topo::NodeId leaf = topo::kNoNode;  // Slurm's leaf for it: most of its ports', on a tie rail 0's
};

class PriceFabric {
 public:
  // `fabric`, `cables` and `router` must outlive this.
  PriceFabric(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::Router& router,
              bool adaptive);

  const topo::Fabric& fabric() const { return fabric_; }
  const routing::CableIndex& cables() const { return cables_; }
  const routing::Router& router() const { return router_; }
  bool adaptive() const { return adaptive_; }

  const std::vector<PriceHost>& hosts() const { return hosts_; }
  const std::vector<std::string>& rails() const { return rails_; }
  int tier(topo::NodeId n) const { return tier_[n]; }
  // The host whose cable this edge is (either direction), or UINT32_MAX for switch cables.
  HostId host_of_edge(routing::EdgeId e) const { return host_of_edge_[e]; }
  bool host_up(routing::EdgeId e) const { return host_up_[e]; }  // host -> leaf
  GroupId group(routing::EdgeId e) const { return group_[e]; }   // kNoGroup for host cables
  const std::vector<routing::EdgeId>& group_edges(GroupId g) const { return groups_[g]; }
  size_t group_count() const { return groups_.size(); }
  // A host's cables, up (towards the leaf) or down, by rail; kNoEdge where it has none.
  static constexpr routing::EdgeId kNoEdge = UINT32_MAX;
  routing::EdgeId host_edge(HostId h, size_t rail, bool up) const;
  std::optional<HostId> find_host(const std::string& name) const;

 private:
  const topo::Fabric& fabric_;
  const routing::CableIndex& cables_;
  const routing::Router& router_;
  bool adaptive_;
  std::vector<PriceHost> hosts_;
  std::map<std::string, HostId> host_index_;  // by name
  std::vector<std::string> rails_;
  std::vector<int> tier_;
  std::vector<HostId> host_of_edge_;
  std::vector<char> host_up_;
  std::vector<GroupId> group_;
  std::vector<std::vector<routing::EdgeId>> groups_;
};

}  // namespace ibburn::price
