#include "burn/verbs/send_window.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ibburn::burn::verbs {

SendWindow::SendWindow(int depth, int signal_every)
    : depth_(std::max(depth, 1)), signal_every_(std::clamp(signal_every, 1, std::max(depth, 1))) {}

uint64_t SendWindow::post(bool force_signal) {
  if (room() <= 0) throw std::logic_error("send window: posting beyond the send queue depth");
  const uint64_t number = posted_++;
  if (force_signal && (number + 1) % signal_every_ != 0) last_forced_ = number;
  return number;
}

bool SendWindow::was_signalled(uint64_t number) const {
  return (number + 1) % signal_every_ == 0 || number == last_forced_;
}

uint64_t SendWindow::complete(uint64_t number) {
  if (number < retired_ || number >= posted_ || !was_signalled(number)) {
    throw std::logic_error("send window: completion for request " + std::to_string(number) +
                           " which is not an outstanding signalled request");
  }
  const uint64_t freed = number + 1 - retired_;
  retired_ = number + 1;
  return freed;
}

}  // namespace ibburn::burn::verbs
