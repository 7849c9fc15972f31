#pragma once
// A transport with no data plane: each connection's byte counters advance at the slower of
// its two ranks' rates while started. It lets rank 0's coordinator and the ranks' workers run
// in threads of one process (tests, the control-plane benchmark) with rates that are known.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "burn/transport.h"

namespace ibburn::testing {

class PacedTransport : public burn::Transport {
 public:
  // rates_gbps: what each rank achieves; every endpoint reports the highest as its port rate,
  // so a rank below it is slow.
  // first_start_ns (may be null): lowered to the steady-clock time of the first start().
  PacedTransport(int rank, std::shared_ptr<const std::vector<double>> rates_gbps,
                 std::shared_ptr<std::atomic<long long>> first_start_ns = nullptr)
      : rank_(rank), rates_(std::move(rates_gbps)), first_start_(std::move(first_start_ns)) {}
  std::string name() const override { return "paced"; }
  burn::EndpointInfo local_endpoint() const override;
  std::unique_ptr<burn::Connection> create(const burn::ConnectionSpec& spec) override;
  // Its port's counters: sent_pkts rises by 100 a read, rcvd_seq_err by 1 once count_errors().
  burn::PortCounterValues port_counters() const override;

  // Every create() throws EnvironmentError(why), as a host that cannot pin memory does.
  void fail_setup(std::string why) { setup_failure_ = std::move(why); }
  void count_errors() { errors_ = true; }

 private:
  int rank_;
  std::string setup_failure_;
  bool errors_ = false;
  mutable std::atomic<std::uint64_t> reads_{0};
  std::shared_ptr<const std::vector<double>> rates_;
  std::shared_ptr<std::atomic<long long>> first_start_;
};

}  // namespace ibburn::testing
