#include "burn/verbs/send_window.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ibburn::burn::verbs {
namespace {

TEST(SendWindow, SignalsOneInEveryK) {
  SendWindow w(16, 4);
  std::vector<bool> signalled;
  for (int i = 0; i < 12; ++i) signalled.push_back(w.was_signalled(w.post()));
  const std::vector<bool> expect{false, false, false, true, false, false, false, true, false, false, false, true};
  EXPECT_EQ(signalled, expect);
}

TEST(SendWindow, RoomNeverExceedsDepth) {
  SendWindow w(8, 4);
  for (int i = 0; i < 8; ++i) w.post();
  EXPECT_EQ(w.room(), 0);
  EXPECT_EQ(w.outstanding(), 8);
  EXPECT_THROW(w.post(), std::logic_error);
}

TEST(SendWindow, SignalledCompletionRetiresEverythingBeforeIt) {
  SendWindow w(8, 4);
  for (int i = 0; i < 8; ++i) w.post();
  EXPECT_EQ(w.complete(3), 4u);
  EXPECT_EQ(w.room(), 4);
  EXPECT_EQ(w.complete(7), 4u);
  EXPECT_EQ(w.outstanding(), 0);
  EXPECT_EQ(w.retired(), 8u);
}

TEST(SendWindow, RejectsCompletionOfUnsignalledOrRetiredRequests) {
  SendWindow w(8, 4);
  for (int i = 0; i < 8; ++i) w.post();
  EXPECT_THROW(w.complete(2), std::logic_error);  // unsignalled
  w.complete(3);
  EXPECT_THROW(w.complete(3), std::logic_error);   // already retired
  EXPECT_THROW(w.complete(11), std::logic_error);  // never posted
}

TEST(SendWindow, ForcedSignalRetiresTheTail) {
  SendWindow w(8, 4);
  w.post();
  w.post();
  const uint64_t tail = w.post(/*force_signal=*/true);
  EXPECT_TRUE(w.was_signalled(tail));
  EXPECT_EQ(w.complete(tail), 3u);
  EXPECT_EQ(w.outstanding(), 0);
}

TEST(SendWindow, CadenceIsClampedToDepthSoAFullWindowHoldsASignal) {
  SendWindow w(4, 100);
  EXPECT_EQ(w.signal_every(), 4);
  for (int i = 0; i < 4; ++i) w.post();
  EXPECT_TRUE(w.was_signalled(3));
  SendWindow one(0, 0);
  EXPECT_EQ(one.depth(), 1);
  EXPECT_EQ(one.signal_every(), 1);
}

}  // namespace
}  // namespace ibburn::burn::verbs
