#include "common/exit_watchdog.h"

#include <cstdio>
#include <cstdlib>

namespace ibburn {

ExitWatchdog::ExitWatchdog(std::chrono::milliseconds limit, int code, std::string message)
    : thread_([this, limit, code, message = std::move(message)] {
        std::unique_lock lock(mutex_);
        if (disarmed_cv_.wait_for(lock, limit, [this] { return disarmed_; })) return;
        if (!message.empty()) std::fprintf(stderr, "%s\n", message.c_str());
        std::fflush(nullptr);
        std::_Exit(code);
      }) {}

ExitWatchdog::~ExitWatchdog() {
  {
    const std::lock_guard lock(mutex_);
    disarmed_ = true;
  }
  disarmed_cv_.notify_one();
  thread_.join();
}

}  // namespace ibburn
