#pragma once
// Every route the forwarding tables program towards every HCA LID, walked once (pure). From
// each switch with an HCA on it (per SL and ingress port when VLs are counted), hop by hop
// until the destination's port: what the credit-loop check needs (each pair of channels one
// route takes in a row), what the reachability check needs (entries missing, routes that loop
// or end elsewhere) and, on a tree, the routes that turn up after coming down or take a next
// hop no closer. A route joining one walked before for the same destination (same channel and
// SL) stops there: the rest is the same, so each destination costs one pass over the switches.
#include <cstdint>
#include <vector>

#include "route_check/lid_owners.h"
#include "route_check/vl_tables.h"
#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"

namespace ibburn::route_check {

// A channel is one direction of one cable on one VL: edge * vl_count + vl.
using ChannelId = uint32_t;

struct Dependency {
  ChannelId from, to;  // a route takes `to` right after `from`
  uint16_t dlid;       // the first destination seen doing so
  uint8_t sl;
};

struct DeadEnd {
  enum class Why : uint8_t { NoEntry, UnlinkedPort, WrongPort, Loop };
  topo::NodeId sw;  // where the route ends or, for a loop, where it comes back to
  uint16_t dlid;
  Why why;
  int port = 0;          // the table's port (UnlinkedPort, WrongPort)
  topo::PortEnd landed;  // WrongPort: the port the route ends at instead
};

// Per switch, routes that turn there (came down into it, leave it not down) or that it sends
// over a next hop no closer to their destination: how many destinations, and one of them.
struct SwitchTally {
  uint32_t count = 0;
  uint16_t example_lid = 0;
  routing::EdgeId in = 0, out = 0;  // the example's cables into and out of the switch (turns)
  int extra_hops = 0;               // the example's hops past the shortest (detours)
};

struct RouteWalk {
  int vl_count = 1;
  bool tree = false;                     // switches sit at two or more tiers: turns and detours were judged
  std::vector<Dependency> dependencies;  // each (from, to) once
  std::vector<DeadEnd> dead_ends;        // each (switch, LID) once, by switch then LID
  std::vector<SwitchTally> turns;        // by NodeId (tree only)
  std::vector<SwitchTally> detours;      // by NodeId (tree only)
  uint64_t steps = 0;                    // hops walked
  routing::EdgeId edge_of(ChannelId c) const { return c / static_cast<uint32_t>(vl_count); }
  int vl_of(ChannelId c) const { return static_cast<int>(c % static_cast<uint32_t>(vl_count)); }
};

// VLs in use: one past the highest data VL the SL2VL tables give an SL some route is on (1
// without tables).
int vl_count_of(const VlTables* vls);

// The tables by node, and the one step every walk takes: the port a switch's table gives a
// LID, and the channel (cable and VL) out of it that the route takes. The tables are held
// transposed, by LID then switch: a walk towards one LID reads one row of them instead of one
// byte of every switch's table (3,840 tables of 48k LIDs at 45,056 HCAs: the walk went from
// one cache miss a hop to none).
class RouteTables {
 public:
  // `vls` null: one VL, every route on it; with tables, a switch without one puts everything
  // on VL 0.
  RouteTables(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::ForwardingTables& lfts,
              const VlTables* vls);
  enum class Next : uint8_t { Ok, NoEntry, Unlinked, ToSwitch };
  struct Step {
    Next next;
    int port = 0;
    routing::EdgeId edge = 0;
    ChannelId channel = UINT32_MAX;
  };
  Step step(topo::NodeId sw, int in_port, uint16_t dlid, uint8_t sl) const;
  bool has_table(topo::NodeId sw) const { return has_table_[sw] != 0; }
  bool to_switch(routing::EdgeId e) const { return to_switch_[e] != 0; }
  uint8_t sl(uint16_t slid, uint16_t dlid) const { return vls_ ? vls_->sl(slid, dlid) : 0; }
  const VlTables* vls() const { return vls_; }
  int vl_count() const { return vl_count_; }
  // The channels one route takes out of switches, HCA port `src` to `dlid`, in order; stops
  // where the route ends or loops.
  std::vector<ChannelId> trace(topo::PortEnd src, uint16_t dlid) const;

 private:
  static constexpr uint32_t kNotSwitch = UINT32_MAX;
  const topo::Fabric& fabric_;
  const routing::CableIndex& cables_;
  const VlTables* vls_;
  int vl_count_;
  size_t switches_ = 0;
  std::vector<uint32_t> switch_index_;    // by NodeId
  std::vector<char> has_table_;           // by NodeId
  size_t lids_ = 0;                       // LIDs the longest table covers
  std::vector<uint8_t> by_lid_;           // [lid * switches_ + switch index]
  std::vector<const Sl2VlTable*> sl2vl_;  // by NodeId
  std::vector<char> to_switch_;           // by EdgeId
};

RouteWalk walk_routes(const topo::Fabric& fabric, const routing::CableIndex& cables, const LidOwners& owners,
                      const RouteTables& tables);

}  // namespace ibburn::route_check
