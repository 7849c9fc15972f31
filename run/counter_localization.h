#pragma once
// The job's side of localisation from port counters (localization/counter_localize.h): each
// stage's counter deltas become the load of every switch egress port, judged against the
// ports the routing treats as equals; the cables named are kept over all stages, one
// `suspect_cable` finding per cable (source "port counters"), and the cable directions they
// name are what the flow-based localisation must not blame on anything else.
#include <map>
#include <set>
#include <vector>

#include "common/finding.h"
#include "counters/counter_delta.h"
#include "localization/counter_localize.h"
#include "routing/route_model.h"

namespace ibburn::run {

// The load of every edge out of a switch port: 4 x PortXmitData (else 4 x the peer's
// PortRcvData when the egress port's data was not read) and PortXmitWait.
std::vector<localization::PortLoad> port_loads(const routing::RouteModel& model,
                                               const std::vector<counters::PortDelta>& deltas);

class CounterLocalization {
 public:
  // The groups come from the model's router: none under static routes (nothing is judged).
  explicit CounterLocalization(const routing::RouteModel& model, localization::CounterRules rules = {});
  bool judges() const { return !groups_.empty(); }
  void add_stage(const std::vector<counters::PortDelta>& deltas, int stage);
  // One finding per cable, its strongest evidence (an error at >= localization::kConfident).
  std::vector<Finding> findings() const;
  // Both directions of every cable named at >= localization::kConfident.
  std::set<routing::EdgeId> named() const;
  // Coverage shortfalls (`not_exercised`) a named cable explains: its own go (the slow cable,
  // not a different route, is why it carried less than the modelled even split); the others
  // become warnings that say so, since adaptive routing moves the load of every path through
  // a slow cable (the cables of the pod at the other end of its flows carry less too).
  void explain_shortfalls(std::vector<Finding>& coverage) const;

 private:
  const routing::RouteModel& model_;
  localization::CounterRules rules_;
  std::vector<routing::PortGroup> groups_;
  struct Named {
    localization::CounterSuspect best;
    int stage = 0;
    std::set<int> stages;
  };
  std::map<std::pair<routing::EdgeId, routing::EdgeId>, Named> by_cable_;  // (lower, higher) EdgeId of the cable
};

}  // namespace ibburn::run
