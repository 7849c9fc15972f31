#pragma once
// The fabric changing shape during the burn (pure): every counters sweep after a stage is
// compared with the sweep before stage 1. A switch that stops answering is one
// `switch_dropped` finding with its cables in the details (a spine that reboots takes dozens
// of cables with it, and every one of them is that one cause); switches that drop out together
// (connected to each other) are one finding, and HCAs behind them are part of it. A cable that
// went down while both its switches still answer, an HCA that no longer answers, or a
// LinkDownedCounter that stepped is one `link_down` finding per cable, both ends named.
// Each change is reported once, in the stage it first showed; the other per-port findings
// about the same ports (errors under load, coverage) become details of the change.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/finding.h"
#include "counters/port_counters.h"
#include "routing/route_model.h"

namespace ibburn::run {

class TopologyWatch {
 public:
  // `start`: the sweep before stage 1. Ports that did not answer then are not judged.
  explicit TopologyWatch(counters::Snapshot start);

  // Adds the changes `now` (the sweep after stage `stage`) shows that no earlier sweep
  // showed to findings(); returns how many.
  size_t compare(const counters::Snapshot& now, int stage);

  // Whether a change found so far covers this port (by node GUID and port number).
  bool affected(uint64_t node_guid, int port) const { return affected_guid_.count({node_guid, port}) > 0; }

  // Removes from `findings` those naming a port a change covers, and errors under load of
  // only relay errors and discards in or after the stage of a change (packets toward what
  // went away);
  // each goes into that change's details (`consequences`).
  void absorb(std::vector<Finding>& findings);

  // `expected` octets per cable direction with 0 where either end is covered by a change:
  // coverage from counters cannot judge a cable that went away.
  std::vector<double> judgeable(const routing::RouteModel& model, std::vector<double> expected) const;

  // Every change found so far, with what was absorbed into it.
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  using PortKey = std::pair<uint64_t, int>;  // node GUID, port
  void cover(size_t finding, const counters::PortSample& p);

  counters::Snapshot start_;
  std::map<std::string, uint64_t> guid_of_name_;                // how samples name their peers
  std::set<std::string> reported_;                              // switches and cables already reported
  std::set<PortKey> affected_guid_;                             // ports a change covers
  std::map<std::pair<std::string, int>, size_t> affected_ref_;  // port by name -> into findings_
  std::vector<Finding> findings_;
};

}  // namespace ibburn::run
