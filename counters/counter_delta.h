#pragma once
// Differences between two snapshots of the same ports: how much each counter rose, per
// hour and per terabyte moved through the port. Counters that went down were cleared (or
// the port reset) in between; their delta is then the current value.
#include <optional>
#include <vector>

#include "counters/port_counters.h"

namespace ibburn::counters {

struct PortDelta {
  const PortSample* now = nullptr;    // points into the newer snapshot
  CounterValues delta;                // rise of every counter read in both snapshots
  bool reset = false;                 // some counter went down: cleared in between
  double hours = 0;                   // time between the two sweeps
  std::optional<double> data_octets;  // octets moved (xmit + rcv) in between

  // Rise per hour; 0 when no time passed.
  double per_hour(Counter c) const;
  // Rise per terabyte (1e12 octets) moved; nullopt when no data counters or no data moved.
  std::optional<double> per_terabyte(Counter c) const;
};

// Deltas for the ports reachable in both snapshots, matched by node GUID and port (node
// names may change between runs when a node-name-map is added).
std::vector<PortDelta> compute_deltas(const Snapshot& before, const Snapshot& now);

}  // namespace ibburn::counters
