#include "burn/port_counters.h"

#include <array>
#include <string_view>

#include <fmt/format.h>

namespace ibburn::burn {

PortCounterValues counter_rise(const PortCounterValues& before, const PortCounterValues& after) {
  PortCounterValues rise;
  for (const auto& [name, value] : after) {
    const auto b = before.find(name);
    if (b != before.end() && value >= b->second) rise[name] = value - b->second;
  }
  return rise;
}

void add_counters(PortCounterValues& a, const PortCounterValues& b) {
  for (const auto& [name, value] : b) a[name] += value;
}

CounterClass counter_class(const std::string& name) {
  // Exact names: rxe's "ack_deferred" or mlx5's "rx_atomic_requests" are neither.
  static constexpr std::array<std::string_view, 9> kRecovered{
      "rcvd_seq_err",     "out_of_seq_request", "duplicate_request",   "completer_retry_err",    // rxe
      "out_of_sequence",  "packet_seq_err",     "implied_nak_seq_err", "local_ack_timeout_err",  // mlx5
      "rnr_nak_retry_err"};
  static constexpr std::array<std::string_view, 18> kFailure{"retry_exceeded_err",
                                                             "retry_rnr_exceeded_err",
                                                             "send_err",
                                                             "link_downed",  // rxe
                                                             "req_cqe_error",
                                                             "resp_cqe_error",
                                                             "req_remote_access_errors",
                                                             "resp_local_length_error",  // mlx5
                                                             "symbol_error",
                                                             "port_rcv_errors",
                                                             "port_rcv_remote_physical_errors",
                                                             "port_xmit_discards",  // the PMA's
                                                             "port_rcv_constraint_errors",
                                                             "port_xmit_constraint_errors",
                                                             "local_link_integrity_errors",
                                                             "excessive_buffer_overrun_errors",
                                                             "link_error_recovery",
                                                             "VL15_dropped"};
  for (std::string_view e : kFailure)
    if (name == e) return CounterClass::Failure;
  for (std::string_view e : kRecovered)
    if (name == e) return CounterClass::Recovered;
  return CounterClass::Traffic;
}

namespace {

// Packets sent plus received: rxe's names, else the PMA's.
std::uint64_t packets(const PortCounterValues& rise) {
  auto get = [&](const char* n) {
    const auto it = rise.find(n);
    return it == rise.end() ? std::uint64_t{0} : it->second;
  };
  const std::uint64_t rxe = get("sent_pkts") + get("rcvd_pkts");
  return rxe > 0 ? rxe : get("port_xmit_packets") + get("port_rcv_packets");
}

std::string risen(const PortCounterValues& rise, CounterClass c) {
  std::string out;
  for (const auto& [name, value] : rise)
    if (value > 0 && counter_class(name) == c) out += fmt::format("{}{} +{}", out.empty() ? "" : ", ", name, value);
  return out;
}

}  // namespace

std::string port_counter_problem(const PortCounterValues& rise, double max_recovered_per_packet) {
  std::string out = risen(rise, CounterClass::Failure);
  std::uint64_t recovered = 0;
  for (const auto& [name, value] : rise)
    if (counter_class(name) == CounterClass::Recovered) recovered += value;
  if (recovered == 0) return out;
  const std::uint64_t n = packets(rise);
  const double rate = n > 0 ? static_cast<double>(recovered) / static_cast<double>(n) : 1.0;
  if (rate <= max_recovered_per_packet) return out;
  if (!out.empty()) out += "; ";
  if (n > 0)
    out += fmt::format("resent or out of sequence: {:.3g}% of {} packets ({}), above {:.3g}%", 100 * rate, n,
                       risen(rise, CounterClass::Recovered), 100 * max_recovered_per_packet);
  else
    out += fmt::format("resent or out of sequence ({}), packets not counted", risen(rise, CounterClass::Recovered));
  return out;
}

}  // namespace ibburn::burn
