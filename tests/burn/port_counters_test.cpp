// A rank's own port counters (burn/port_counters.h): the rise over a stage, the sum over
// stages, and which counters are errors.
#include "burn/port_counters.h"

#include <gtest/gtest.h>

namespace ibburn::burn {
namespace {

TEST(PortCounters, RiseIsAfterMinusBeforeForCountersInBoth) {
  const PortCounterValues before{{"sent_pkts", 100}, {"rcvd_seq_err", 2}, {"gone", 5}};
  const PortCounterValues after{{"sent_pkts", 350}, {"rcvd_seq_err", 2}, {"new", 9}};
  EXPECT_EQ(counter_rise(before, after), (PortCounterValues{{"sent_pkts", 250}, {"rcvd_seq_err", 0}}));
}

TEST(PortCounters, ACounterThatWentDownHasNoKnownRise) {
  // reset by the driver (or an HCA reset) between the reads
  EXPECT_EQ(counter_rise({{"link_downed", 4}}, {{"link_downed", 1}}), PortCounterValues{});
}

TEST(PortCounters, AddSumsCounterByCounter) {
  PortCounterValues total{{"sent_pkts", 10}};
  add_counters(total, {{"sent_pkts", 5}, {"retry_exceeded_err", 1}});
  EXPECT_EQ(total, (PortCounterValues{{"sent_pkts", 15}, {"retry_exceeded_err", 1}}));
}

TEST(PortCounters, ClassesSeparateRepairsFromBreakageFromTraffic) {
  for (const char* e : {"rcvd_seq_err", "duplicate_request", "out_of_sequence", "local_ack_timeout_err"})
    EXPECT_EQ(counter_class(e), CounterClass::Recovered) << e;
  for (const char* e : {"retry_exceeded_err", "link_downed", "symbol_error", "port_rcv_errors", "send_err"})
    EXPECT_EQ(counter_class(e), CounterClass::Failure) << e;
  for (const char* t : {"sent_pkts", "rcvd_pkts", "ack_deferred", "rdma_sends", "port_xmit_data", "lifespan"})
    EXPECT_EQ(counter_class(t), CounterClass::Traffic) << t;
}

TEST(PortCounters, AnyFailureCounterThatRoseIsAProblem) {
  EXPECT_EQ(port_counter_problem({{"sent_pkts", 9000}, {"retry_exceeded_err", 3}, {"send_err", 0}}, 1e-3),
            "retry_exceeded_err +3");
  EXPECT_EQ(port_counter_problem({{"sent_pkts", 9000}, {"link_downed", 0}}, 1e-3), "");
}

// Counts from a healthy 8 s burn between two soft-RoCE guests under emulation (tests/rxe).
TEST(PortCounters, RecoveredPacketsAreJudgedPerPacket) {
  const PortCounterValues rise{{"sent_pkts", 91730},       {"rcvd_pkts", 84990},        {"completer_retry_err", 167},
                               {"duplicate_request", 348}, {"out_of_seq_request", 127}, {"rcvd_seq_err", 154}};
  EXPECT_EQ(port_counter_problem(rise, 1e-3),
            "resent or out of sequence: 0.45% of 176720 packets (completer_retry_err +167, duplicate_request +348, "
            "out_of_seq_request +127, rcvd_seq_err +154), above 0.1%");
  EXPECT_EQ(port_counter_problem(rise, 0.01), "");
}

TEST(PortCounters, RecoveredPacketsWithoutAPacketCountAreAProblem) {
  EXPECT_EQ(port_counter_problem({{"out_of_sequence", 2}}, 0.5),
            "resent or out of sequence (out_of_sequence +2), packets not counted");
  EXPECT_EQ(port_counter_problem(
                {{"port_xmit_packets", 1000000}, {"port_rcv_packets", 1000000}, {"out_of_sequence", 2}}, 1e-3),
            "");
}

}  // namespace
}  // namespace ibburn::burn
