#pragma once
// One conformance suite for every burn transport (gloo/tensorpipe style): the tests use only
// burn/transport.h, and each backend instantiates them with a harness that makes two
// transports able to reach each other (two soft HCA hosts for verbs; loopback for TCP):
//   INSTANTIATE_TEST_SUITE_P(Verbs, TransportSuite, ::testing::Values(backend));
// Link transport_suite.cpp into the instantiating test binary.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "burn/transport.h"

namespace ibburn::testing {

class TransportPair {
 public:
  virtual ~TransportPair() = default;
  virtual burn::Transport& a() = 0;
  virtual burn::Transport& b() = 0;
};

struct TransportBackend {
  std::string name;
  std::function<std::unique_ptr<TransportPair>(const burn::TransportOptions&)> make;
};

class TransportSuite : public ::testing::TestWithParam<TransportBackend> {};

// One end of flow `flow` in stage 1.
inline burn::ConnectionSpec flow_end(uint32_t flow, bool send, bool receive, int streams = 2, bool initiator = false) {
  burn::ConnectionSpec s;
  s.stage = 1;
  s.flow_id = flow;
  s.send = send;
  s.receive = receive;
  s.initiator = initiator;
  s.streams = streams;
  return s;
}

// Polls `pred` until it holds or `limit` passes (a bound against hangs, not a timing check).
template <class Pred>
bool eventually(Pred pred, std::chrono::seconds limit = std::chrono::seconds(30)) {
  const auto deadline = burn::Clock::now() + limit;
  while (burn::Clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

}  // namespace ibburn::testing
