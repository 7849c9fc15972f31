#pragma once
// The sim transport over a simulated fabric: the bytes the fluid model moved in a stage are
// written into ibsim's port data counters (console `PerformanceSet`, PortCountersExtended),
// and the model's wait into PortCounters.PortXmitWait (run/modelled_counters.h), so the
// counters sweep after the stage sees them as it would see a real burn's traffic on the
// switches. ibsim sets absolute values: each port's count starts from what a sweep read.
#include <cstdint>
#include <string>
#include <map>
#include <vector>

#include "counters/port_counters.h"
#include "routing/route_model.h"

namespace ibburn::run {

class SimDataCounters {
 public:
  // `console`: ibsim's stdin pipe (scripts/simfabric keeps it at $SIMFABRIC_DIR/console).
  // `capacity_gbps`: each cable direction's capacity in the model (degraded cables at their fraction).
  SimDataCounters(std::string console, const routing::RouteModel& model, std::vector<double> capacity_gbps);

  // The values to count on from (the snapshot before the first stage).
  void start_from(const counters::Snapshot& snapshot);
  // Adds the stage's traffic (Gb/s per cable direction for `seconds`) and sends the new
  // values of every port it touched. Throws EnvironmentError when the console cannot be written.
  void add(const std::vector<double>& edge_gbps, double seconds);
  // Whether `snapshot` shows the last value sent: ibsim applies console lines between MADs,
  // so a sweep taken too early sees only part of them.
  bool applied(const counters::Snapshot& snapshot) const;

 private:
  // ibsim names nodes as ibnetdiscover does: "S-<guid>" for switches, "H-<guid>" for CAs.
  std::string node_id(topo::NodeId n) const;

  std::string console_;
  const routing::RouteModel& model_;
  std::vector<double> capacity_;
  using PortKey = std::pair<uint64_t, int>;  // node GUID, port
  struct Count {
    uint64_t xmit = 0, rcv = 0, wait = 0;  // 4-octet words; wait ticks
  };
  std::map<PortKey, Count> words_;
  PortKey last_key_{};
  uint64_t last_xmit_ = 0;
  bool sent_ = false;
};

}  // namespace ibburn::run
