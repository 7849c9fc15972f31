#pragma once
// Ends the process unless disarmed in time: for calls that cannot be bounded from the thread
// that makes them (MPI_Init, MPI's communicator splits, MPI_Finalize), which wait forever for
// a peer that died. Destroying the watchdog disarms it.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace ibburn {

class ExitWatchdog {
 public:
  // After `limit`, prints `message` (when not empty) to stderr, flushes every stream and
  // exits with `code`, without running destructors (another thread is stuck in the call).
  ExitWatchdog(std::chrono::milliseconds limit, int code, std::string message);
  ~ExitWatchdog();
  ExitWatchdog(const ExitWatchdog&) = delete;
  ExitWatchdog& operator=(const ExitWatchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable disarmed_cv_;
  bool disarmed_ = false;
  std::thread thread_;
};

}  // namespace ibburn
