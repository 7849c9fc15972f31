// The watchdog that bounds MPI's unboundable calls: it ends the process, saying why, when not
// disarmed in time, and never once disarmed.
#include "common/exit_watchdog.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

namespace ibburn {
namespace {

using namespace std::chrono_literals;

class ExitWatchdogDeath : public ::testing::Test {
 protected:
  // The watchdog is a thread: the child re-runs the binary rather than fork a threaded parent.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(ExitWatchdogDeath, ACallThatOverrunsEndsTheProcessWithTheCodeAndTheMessage) {
  EXPECT_EXIT(
      {
        const ExitWatchdog watchdog(50ms, 3, "MPI start-up did not complete within 50 ms");
        std::this_thread::sleep_for(10s);  // the stuck call
      },
      ::testing::ExitedWithCode(3), "MPI start-up did not complete within 50 ms");
}

TEST_F(ExitWatchdogDeath, ADisarmedWatchdogNeverFires) {
  EXPECT_EXIT(
      {
        { const ExitWatchdog watchdog(50ms, 3, "fired"); }
        std::this_thread::sleep_for(200ms);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace ibburn
