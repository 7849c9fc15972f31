#pragma once
// The counters the kernel keeps for a rank's own port (sysfs: the driver's hw_counters and the
// PMA's counters), read by the rank at each stage's set-up and report: what rose during the
// stage, and which of the risen ones are errors. On RoCE, which has no subnet management
// packets, they are the first counter source; on InfiniBand they add the HCA's view (retries,
// sequence errors) to the switches'. Pure: the values come from the transport.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ibburn::burn {

// Counter name (as the kernel names the file) -> value.
using PortCounterValues = std::map<std::string, std::uint64_t>;

// after - before for each counter in both. A counter that went down (reset, or wrapped) is
// left out: its rise is unknown.
PortCounterValues counter_rise(const PortCounterValues& before, const PortCounterValues& after);
// a += b, counter by counter.
void add_counters(PortCounterValues& a, const PortCounterValues& b);

// What a counter's rise means. Recovered: the transport repaired it (a packet lost and
// resent, out of sequence, a duplicate), which costs bandwidth in proportion to its rate; a
// lossy RoCE network, or an emulated one, has some. Failure: something broke (retries ran
// out, the link went down, symbols or packets were bad). Traffic: counts of what moved.
enum class CounterClass { Traffic, Recovered, Failure };
// By the names of rxe's and mlx5's hw_counters and the PMA's counters/.
CounterClass counter_class(const std::string& name);

// Recovered counters per packet above which a port's rise is a finding: one in a thousand
// packets resent is well below the loss a lossless fabric ever shows, and already costs a
// go-back-N RoCE transport a visible share of its rate.
inline constexpr double kMaxRecoveredPerPacket = 1e-3;

// What is wrong with a port, given its counters' rise over the burn: the failure counters
// that rose, and the recovered ones when their sum per packet (sent plus received; counted
// as unknown when the port counts no packets) exceeds `max_recovered_per_packet`. "" when
// nothing: "retry_exceeded_err +3; resent or out of sequence: 0.38% of 181k packets
// (duplicate_request +348, rcvd_seq_err +154), above 0.1%".
std::string port_counter_problem(const PortCounterValues& rise, double max_recovered_per_packet);

}  // namespace ibburn::burn
