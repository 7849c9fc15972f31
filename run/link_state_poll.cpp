#include "run/link_state_poll.h"

#include <algorithm>
#include <exception>

namespace ibburn::run {

LinkStatePoll::LinkStatePoll(counters::Sweeper& sweeper, std::chrono::milliseconds interval, Seen seen)
    : sweeper_(sweeper), interval_(interval), seen_(std::move(seen)), thread_([this] { loop(); }) {}

void LinkStatePoll::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LinkStatePoll::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    const auto t0 = std::chrono::steady_clock::now();
    try {
      seen_(sweeper_.sweep_port_states());
      ++polls_;
    } catch (const std::exception&) {
      // A poll that fails (the management plane busy, a MAD error) is only a poll missed: the
      // sweep after the stage still judges every port.
    }
    const auto took = std::chrono::steady_clock::now() - t0;
    lock.lock();
    wake_.wait_for(lock, std::max<std::chrono::steady_clock::duration>(interval_, 2 * took),
                   [this] { return stopping_; });
  }
}

}  // namespace ibburn::run
