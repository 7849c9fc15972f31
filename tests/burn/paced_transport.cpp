#include "tests/burn/paced_transport.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "common/error.h"

namespace ibburn::testing {
namespace {

class PacedConnection : public burn::Connection {
 public:
  PacedConnection(const burn::ConnectionSpec& spec, double gbps, std::shared_ptr<std::atomic<long long>> first_start)
      : spec_(spec), bytes_per_s_(gbps * 1e9 / 8), first_start_(std::move(first_start)) {}
  const burn::ConnectionSpec& spec() const override { return spec_; }
  burn::AddressBlob local_address() const override { return {static_cast<std::uint8_t>(spec_.local_rank & 0xff)}; }
  void connect(const burn::AddressBlob&, burn::Clock::time_point) override {}
  void start() override {
    const long long t = now_ns();
    started_ns_ = t;
    if (!first_start_) return;
    long long seen = *first_start_;
    while ((seen == 0 || t < seen) && !first_start_->compare_exchange_weak(seen, t)) {
    }
  }
  void stop() override { stopped_ns_ = now_ns(); }
  bool wait(burn::Clock::time_point) override { return true; }
  burn::ConnectionCounters counters() const override {
    const long long start = started_ns_, stop = stopped_ns_;
    const long long end = stop ? stop : now_ns();
    const auto bytes = start ? static_cast<std::uint64_t>(bytes_per_s_ * (end - start) / 1e9) : 0;
    burn::ConnectionCounters c;
    if (spec_.send) c.tx.bytes = bytes;
    if (spec_.receive) c.rx.bytes = bytes;
    return c;
  }
  std::optional<burn::TransportFailure> error() const override { return std::nullopt; }

 private:
  static long long now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(burn::Clock::now().time_since_epoch()).count();
  }
  burn::ConnectionSpec spec_;
  double bytes_per_s_;
  std::shared_ptr<std::atomic<long long>> first_start_;
  // Set by the worker's thread, read by its sampling: atomics keep TSan (and the reader) honest.
  std::atomic<long long> started_ns_{0}, stopped_ns_{0};
};

}  // namespace

burn::EndpointInfo PacedTransport::local_endpoint() const {
  burn::EndpointInfo e;
  e.host = "host" + std::to_string(rank_ / 8);
  e.endpoint = "paced_" + std::to_string(rank_ % 8) + ":1";
  e.link_layer = "InfiniBand";
  e.rate_gbps = *std::max_element(rates_->begin(), rates_->end());  // every port's nominal rate
  return e;
}

std::unique_ptr<burn::Connection> PacedTransport::create(const burn::ConnectionSpec& spec) {
  if (!setup_failure_.empty()) throw EnvironmentError(setup_failure_);
  const double gbps = std::min((*rates_)[spec.local_rank], (*rates_)[spec.peer_rank]);
  return std::make_unique<PacedConnection>(spec, gbps, first_start_);
}

burn::PortCounterValues PacedTransport::port_counters() const {
  const std::uint64_t n = ++reads_;
  return {{"sent_pkts", 100 * n}, {"rcvd_seq_err", errors_ ? n : 0}};
}

}  // namespace ibburn::testing
