#pragma once
// Credit loops (pure): cycles in the channel dependency graph of the programmed routes. A
// channel is one direction of a cable on one VL; a route that takes channel b right after a
// holds a's buffer while waiting for b's credits, so a cycle of such waits can deadlock the
// fabric under load (Dally and Seitz's condition). One loop per strongly connected set of
// channels, with one of its cycles in order and a route that closes it.
#include <cstdint>
#include <vector>

#include "route_check/route_walk.h"

namespace ibburn::route_check {

struct CreditLoop {
  int vl = 0;
  std::vector<ChannelId> cycle;  // in order: each depends on the next, the last on the first
  size_t channels_involved = 0;  // the strongly connected set the cycle lies in
  uint16_t dlid = 0;             // a destination whose routes make the last -> first dependency
  uint8_t sl = 0;
};

struct CreditLoopSearch {
  size_t channels = 0;  // channels some dependency touches
  size_t dependencies = 0;
  std::vector<CreditLoop> loops;  // by first channel
};

// `edge_count`: the cable index's size (the walk's channels are edge x VL).
CreditLoopSearch find_credit_loops(const RouteWalk& walk, size_t edge_count);

}  // namespace ibburn::route_check
