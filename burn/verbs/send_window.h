#pragma once
// Credit accounting and selective signalling for one send queue. Work requests are
// numbered from 0; one in every `signal_every` is signalled, and its completion retires it
// and every unsignalled request before it (RC completes in order). Never more than
// `depth` requests are outstanding, and since signal_every <= depth a full queue always
// holds a signalled request whose completion frees room: the window cannot deadlock.
#include <cstdint>

namespace ibburn::burn::verbs {

class SendWindow {
 public:
  // depth >= 1; signal_every is clamped to [1, depth].
  SendWindow(int depth, int signal_every);

  int depth() const { return depth_; }
  int signal_every() const { return signal_every_; }
  // Requests that may be posted now without exceeding the depth.
  int room() const { return depth_ - static_cast<int>(posted_ - retired_); }
  int outstanding() const { return static_cast<int>(posted_ - retired_); }
  uint64_t posted() const { return posted_; }
  uint64_t retired() const { return retired_; }

  // Records one posted request and returns its number. `force_signal` marks a request
  // signalled outside the cadence (the last one of a stage, so the tail completes).
  // Throws std::logic_error when there is no room.
  uint64_t post(bool force_signal = false);
  // Whether request `number` was posted signalled.
  bool was_signalled(uint64_t number) const;

  // A signalled request completed: retires it and all earlier ones; returns how many
  // requests that retired. Throws std::logic_error for a number that was not signalled
  // or not outstanding.
  uint64_t complete(uint64_t number);

 private:
  int depth_;
  int signal_every_;
  uint64_t posted_ = 0;
  uint64_t retired_ = 0;
  uint64_t last_forced_ = UINT64_MAX;  // most recent out-of-cadence signalled request
};

}  // namespace ibburn::burn::verbs
