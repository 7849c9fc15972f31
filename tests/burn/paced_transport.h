#pragma once
// A transport with no data plane: each connection's byte counters advance at the slower of
// its two ranks' rates while started. It lets rank 0's coordinator and the ranks' workers run
// in threads of one process (tests, the control-plane benchmark) with rates that are known.
#include <memory>
#include <vector>

#include "burn/transport.h"

namespace ibburn::testing {

class PacedTransport : public burn::Transport {
 public:
  // rates_gbps: what each rank achieves; every endpoint reports the highest as its port rate,
  // so a rank below it is slow.
  PacedTransport(int rank, std::shared_ptr<const std::vector<double>> rates_gbps)
      : rank_(rank), rates_(std::move(rates_gbps)) {}
  std::string name() const override { return "paced"; }
  burn::EndpointInfo local_endpoint() const override;
  std::unique_ptr<burn::Connection> create(const burn::ConnectionSpec& spec) override;

 private:
  int rank_;
  std::shared_ptr<const std::vector<double>> rates_;
};

}  // namespace ibburn::testing
