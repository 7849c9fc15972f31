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
//
// A link that goes down and comes back inside a stage leaves no trace in the sweep after it
// where the hardware does not step LinkDownedCounter (the simulator never does): polls of the
// ports' state during the stage (observe) see it. Many links of one switch down at once,
// seen either way, are the switch (a reboot, its power, its firmware): one `switch_bounced`
// finding naming it with the count of its links, not one `link_down` per cable.
//
// Silence is not always down: the polls and sweeps go by LID, and while a cable is down the
// routes to some ports cross it. Ports that do not answer while a cable is seen down (an end
// answered and said so) and a link of theirs is up at an end that answers are "unreachable
// behind" it: details of that cable's finding (`unreachable_behind`), never a change of their
// own, so nobody is drained for them. The polls ask such ports again by directed route around
// the ports that said Down (counters::Sweeper): those that answer so are checked as any other
// and listed in the cable's details (`reached_around`).
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

  // A poll of the ports' state during a stage (SweepOptions::state_only): ports up before
  // stage 1 that are not Active now, or whose node does not answer, are remembered until the
  // sweep after the stage (compare) judges them, back up or not.
  void observe(const counters::Snapshot& poll);

  // Adds the changes `now` (the sweep after stage `stage`) shows that no earlier sweep
  // showed, with what the polls during the stage saw, to findings(); returns how many.
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
  // Nodes that did not answer `seen` while a cable was seen down in it (an end answered and
  // said so) and some cable of theirs is up at an answering end: alive, out of the management
  // path's reach. `behind`: the cables seen down (report::cable_name).
  struct Unreached {
    std::set<uint64_t> nodes;
    std::set<std::string> behind;
  };
  Unreached unreached_in(const counters::Snapshot& seen) const;
  void attach_behind(const std::map<std::string, size_t>& finding_of_cable);
  // Ports behind cables seen down, for the findings of those cables: unreachable (by the polls
  // or the sweep), and reached by the polls' directed routes around them.
  struct Behind {
    PortRef port;
    std::set<std::string> behind;
  };
  std::map<PortKey, Behind> unreached_, reached_around_;
  static void note_behind(std::map<PortKey, Behind>& ports, const counters::PortSample& p,
                          const std::set<std::string>& behind);

  counters::Snapshot start_;
  std::map<std::string, uint64_t> guid_of_name_;                // how samples name their peers
  std::set<std::string> reported_;                              // switches and cables already reported
  std::set<PortKey> affected_guid_;                             // ports a change covers
  std::map<std::pair<std::string, int>, size_t> affected_ref_;  // port by name -> into findings_
  struct SeenDown {
    std::string state;  // as the message says it: "Down/Polling", "no longer answers"
    bool answered;      // the port answered (a state read), or its node did not
  };
  std::map<PortKey, SeenDown> seen_down_;   // by the polls since the last compare
  std::map<PortKey, size_t> start_at_;      // into start_.ports
  std::map<std::string, size_t> links_of_;  // switch -> its links up before stage 1
  std::vector<Finding> findings_;
};

}  // namespace ibburn::run
