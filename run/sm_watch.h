#pragma once
// The subnet manager going away mid-run (pure): one `sm_lost` warning, the first time the
// master SM that answered before stage 1 no longer does. LIDs and forwarding tables stay as
// it left them, so the burn and the counters sweeps go on and are judged as before; what is
// lost is that nothing reroutes a link that changes from then on.
#include <optional>

#include "common/finding.h"
#include "topo/master_sm.h"

namespace ibburn::run {

class SmWatch {
 public:
  // `start`: the probe before stage 1. Without a master then there is nothing to lose (the
  // topo check's `no_sm` tells about a fabric without one).
  explicit SmWatch(topo::SmProbe start) : start_(std::move(start)) {}

  // The finding the first time `now` (after stage `stage`) shows no master.
  std::optional<Finding> check(const topo::SmProbe& now, int stage);

 private:
  topo::SmProbe start_;
  bool reported_ = false;
};

}  // namespace ibburn::run
