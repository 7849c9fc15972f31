#pragma once
// The port counters a stage of the fluid model would leave on the switches, so a simulated
// run judges its stages with the same counter code as a live one (pure). Per cable
// direction the model's Gb/s for the stage's seconds become 4-octet words on the egress
// port's PortXmitData and the ingress port's PortRcvData. PortXmitWait counts the time a
// port held data it could not send: in the model, a saturated port (its direction carried
// its capacity) whose link runs below its nominal rate waits (1 - rate/nominal) of the
// window; a port with room to spare, or saturated at its full rate, waits 0. Wait is in
// ticks of 1 us (hardware ticks are the port's own; only ports of one switch are compared).
#include <cstdint>
#include <vector>

#include "counters/port_counters.h"
#include "routing/route_model.h"

namespace ibburn::run {

inline constexpr double kModelWaitTicksPerSecond = 1e6;

struct PortRise {
  topo::PortEnd port;
  uint64_t xmit_words = 0, rcv_words = 0, xmit_wait = 0;
};

// The rise of every port a cable direction with traffic touches (both ends of each loaded
// direction). `capacity_gbps`: each direction's capacity in the stage (degraded cables at
// their fraction); the cable index holds the nominal rate.
std::vector<PortRise> modelled_rises(const routing::RouteModel& model, const std::vector<double>& capacity_gbps,
                                     const std::vector<double>& edge_gbps, double seconds);

// Counters of every switch port of a fabric that has no live counters (a fabric file),
// added up stage by stage from the model's traffic.
class ModelledCounters {
 public:
  ModelledCounters(const routing::RouteModel& model, std::vector<double> capacity_gbps);
  void add(const std::vector<double>& edge_gbps, double seconds);
  // The switch ports' counters now (data and wait; the model has no errors). The clock
  // starts at 0 and advances by each stage's seconds.
  counters::Snapshot snapshot() const;

 private:
  const routing::RouteModel& model_;
  std::vector<double> capacity_;
  struct Count {
    uint64_t xmit = 0, rcv = 0, wait = 0;
  };
  std::vector<Count> by_edge_from_;  // by EdgeId: the counters of the edge's egress port
  double seconds_ = 0;
};

}  // namespace ibburn::run
