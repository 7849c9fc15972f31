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
  int port = 0;           // the table's port (UnlinkedPort, WrongPort)
  topo::PortEnd landed;   // WrongPort: the port the route ends at instead
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
  bool tree = false;  // switches sit at two or more tiers: turns and detours were judged
  std::vector<Dependency> dependencies;  // each (from, to) once
  std::vector<DeadEnd> dead_ends;        // each (switch, LID) once, by switch then LID
  std::vector<SwitchTally> turns;        // by NodeId (tree only)
  std::vector<SwitchTally> detours;      // by NodeId (tree only)
  uint64_t steps = 0;                    // hops walked
  ChannelId channel(routing::EdgeId e, int vl) const { return e * static_cast<uint32_t>(vl_count) + vl; }
  routing::EdgeId edge_of(ChannelId c) const { return c / static_cast<uint32_t>(vl_count); }
  int vl_of(ChannelId c) const { return static_cast<int>(c % static_cast<uint32_t>(vl_count)); }
};

// `vls` null: one VL, every route on it. With tables, a switch without one puts everything
// on VL 0.
RouteWalk walk_routes(const topo::Fabric& fabric, const routing::CableIndex& cables,
                      const routing::ForwardingTables& lfts, const LidOwners& owners, const VlTables* vls);

// VLs in use: one past the highest data VL the SL2VL tables give an SL some route is on (1
// without tables).
int vl_count_of(const VlTables* vls);

// The tables by node, and the one step every walk takes: the port a switch's table gives a
// LID, and the channel (cable and VL) out of it that the route takes.
class RouteTables {
 public:
  RouteTables(const topo::Fabric& fabric, const routing::CableIndex& cables, const routing::ForwardingTables& lfts,
              const VlTables* vls, int vl_count);
  enum class Next : uint8_t { Ok, NoEntry, Unlinked, ToSwitch };
  struct Step {
    Next next;
    int port = 0;
    routing::EdgeId edge = 0;
    ChannelId channel = UINT32_MAX;
  };
  Step step(topo::NodeId sw, int in_port, uint16_t dlid, uint8_t sl) const;
  uint8_t sl(uint16_t slid, uint16_t dlid) const { return vls_ ? vls_->sl(slid, dlid) : 0; }
  // The channels one route takes out of switches, HCA port `src` to `dlid`, in order; stops
  // where the route ends or loops.
  std::vector<ChannelId> trace(topo::PortEnd src, uint16_t dlid) const;

 private:
  const topo::Fabric& fabric_;
  const routing::CableIndex& cables_;
  const VlTables* vls_;
  int vl_count_;
  std::vector<const std::vector<uint8_t>*> lft_;  // by NodeId
  std::vector<const Sl2VlTable*> sl2vl_;          // by NodeId
};

}  // namespace ibburn::route_check
