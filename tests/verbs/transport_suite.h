#pragma once
// One conformance suite for every burn transport (gloo/tensorpipe style): the tests use only
// burn/transport.h, and each backend instantiates them with a harness that makes two
// transports able to reach each other (two soft HCA hosts for verbs; loopback for TCP):
//   INSTANTIATE_TEST_SUITE_P(Verbs, TransportSuite, ::testing::Values(backend));
// Link transport_suite.cpp into the instantiating test binary.
#include <functional>
#include <memory>
#include <string>

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

}  // namespace ibburn::testing
