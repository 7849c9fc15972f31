#pragma once
// Flapping links over a series of sweeps (watch mode). A port bounced when its link went
// down and came back: LinkDownedCounter rose, or the port was seen not Active (Down,
// Polling, Initializing, or its PMA stopped answering) and later Active again. A link
// flaps when one of its ports bounced `min_bounces` times in the window, or, as UFM
// defines it, was seen initializing (Init/Armed: trained but not Active) in `ufm_min` of the
// last `ufm_window` sweeps. A port that stays Down is dead, not flapping.
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding.h"
#include "counters/port_counters.h"

namespace ibburn::counters {

struct FlapRules {
  int min_bounces = 2;
  size_t ufm_window = 10;
  size_t ufm_min = 5;
};

// Something watch mode saw change between two sweeps; streamed as one JSON line.
struct WatchEvent {
  int64_t time_ms = 0;
  size_t sweep = 0;   // 1-based sweep number
  std::string event;  // state, unreachable, reachable, link_downed, errors_rising, flapping
  std::vector<PortRef> ports;
  nlohmann::json details = nlohmann::json::object();
};
nlohmann::json to_json(const WatchEvent& e);

class FlapDetector {
 public:
  explicit FlapDetector(FlapRules rules = {}) : rules_(rules) {}
  // Feeds the next sweep (in time order); returns what changed since the previous one.
  std::vector<WatchEvent> observe(const Snapshot& sweep);
  // One `flapping` finding per link that met a rule so far.
  std::vector<Finding> findings() const;
  size_t sweeps() const { return sweeps_; }

 private:
  struct PortHistory {
    PortSample last;
    bool in_down = false;       // seen not Active since it was last Active
    bool down_counted = false;  // ...and that down was already counted by LinkDowned
    int bounces = 0;
    std::deque<bool> initializing;  // last ufm_window sweeps: seen Init/Armed
    size_t max_initializing = 0;
    std::vector<int64_t> bounce_times;
  };
  bool flapping(const PortHistory& h) const;
  void record(PortHistory& h, const PortSample& now, int64_t time_ms, std::vector<WatchEvent>& events);

  FlapRules rules_;
  size_t sweeps_ = 0;
  std::map<SampleKey, PortHistory> ports_;
  std::set<std::string> announced_;  // links whose flapping event was sent
};

}  // namespace ibburn::counters
