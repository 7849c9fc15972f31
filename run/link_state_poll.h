#pragma once
// Polls every port's state while a stage runs (I/O: a thread over the counters sweeper's
// PortInfo reads), so a switch or a cable that goes down and comes back within the stage is
// seen even where no counter steps (run/topology_change.h judges what the polls saw).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "counters/port_counters.h"
#include "counters/sweep.h"

namespace ibburn::run {

class LinkStatePoll {
 public:
  using Seen = std::function<void(const counters::Snapshot&)>;
  // Polls from now on, every `interval` or twice as long as a poll takes (so the polls never
  // hold the fabric's management plane more than a third of the time), handing each to `seen`
  // on the poll's thread. The sweeper is not used by anything else until stop().
  LinkStatePoll(counters::Sweeper& sweeper, std::chrono::milliseconds interval, Seen seen);
  ~LinkStatePoll() { stop(); }
  LinkStatePoll(const LinkStatePoll&) = delete;
  LinkStatePoll& operator=(const LinkStatePoll&) = delete;

  // Ends the polling after the poll under way; every poll's `seen` has returned then.
  void stop();
  int polls() const { return polls_; }

 private:
  void loop();

  counters::Sweeper& sweeper_;
  std::chrono::milliseconds interval_;
  Seen seen_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  int polls_ = 0;  // written by the poll thread, read after stop()
  std::thread thread_;
};

}  // namespace ibburn::run
