// Rank 0's coordinator with every rank's worker as threads of this process over the real
// control channel, on a transport without a data plane (thread_job.h): the stage loop,
// samples, reports, a lost rank and the summary it writes, under TSan in CI. Each test runs
// with every rank connected directly, and with ranks 2-3 on a second host behind its relay.
#include <gtest/gtest.h>

#include <thread>

#include "burn/coordinator.h"
#include "burn/summary.h"
#include "common/exit_codes.h"
#include "tests/burn/host_relays.h"
#include "tests/burn/protocol_ranks.h"
#include "tests/burn/thread_job.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::burn;
using namespace std::chrono_literals;

namespace {

BurnOptions options(const std::string& out) {
  BurnOptions o;
  o.out_dir = out;
  o.duration = 300ms;
  o.timeout = 5s;
  o.quiet = true;
  o.host_check = false;
  return o;
}

// Stage 1 pairs 0-1 and 2-3, stage 2 pairs 0-2 and 1-3: rank 3 is behind both of its flows.
Plan two_stages() {
  return {"test", {{"pairs", {{0, 1, true, 1}, {2, 3, true, 1}}}, {"shift", {{0, 2, true, 1}, {1, 3, true, 1}}}}};
}

// The ranks per host: 1 = every rank connects to rank 0; 2 = ranks 2 and 3 through a relay.
class Coordinator : public ::testing::TestWithParam<int> {
 protected:
  int run(std::vector<double> rates, int lost_rank, const std::string& out) {
    ibburn::testing::ThreadJob job{4, two_stages(), std::move(rates), lost_rank, nullptr};
    job.ranks_per_host = GetParam();
    return ibburn::testing::run_thread_job(job, options(out));
  }
};

}  // namespace

TEST_P(Coordinator, SlowRankIsNamedAndTheSummaryReadsBackTyped) {
  ibburn::testing::TempDir dir;
  const int code = run({10, 10, 10, 2.5}, -1, dir.path());
  EXPECT_EQ(code, kExitFindings);
  const BurnSummary s = load_summary(dir.file("summary.json"));
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.stages_run, 2);
  EXPECT_FALSE(s.pass);
  ASSERT_EQ(s.endpoints.size(), 4u);
  EXPECT_EQ(s.endpoints[3].verdict, Verdict::Slow);
  EXPECT_EQ(s.endpoints[0].verdict, Verdict::Pass);
  ASSERT_TRUE(s.endpoints[3].min_rx_gbps);
  EXPECT_NEAR(*s.endpoints[3].min_rx_gbps, 2.5, 0.5);
  EXPECT_EQ(s.endpoints[3].host, "host0");
  EXPECT_EQ(s.flows.size(), 8u);  // 2 stages x 2 flows x 2 directions
}

// Rank 3 is behind the relay when there is one: its death reaches rank 0 as the relay's word.
TEST_P(Coordinator, LostRankFailsOnlyItsFlowsAndTheRunGoesOn) {
  ibburn::testing::TempDir dir;
  const int code = run({10, 10, 10, 10}, 3, dir.path());
  EXPECT_EQ(code, kExitFindings);
  const BurnSummary s = load_summary(dir.file("summary.json"));
  EXPECT_EQ(s.stages_run, 2);
  ASSERT_EQ(s.lost_ranks.size(), 1u);
  EXPECT_EQ(s.lost_ranks[0].rank, 3);
  EXPECT_NE(s.lost_ranks[0].reason.find("control connection closed"), std::string::npos) << s.lost_ranks[0].reason;
  EXPECT_EQ(s.endpoints[3].verdict, Verdict::Failed);
  for (int r : {0, 1, 2}) {
    EXPECT_NE(s.endpoints[r].verdict, Verdict::Failed) << "rank " << r;
  }
  for (const auto& f : s.flows)
    if (f.from != 3 && f.to != 3) {
      EXPECT_EQ(f.verdict, Verdict::Pass) << f.from << "->" << f.to;
    }
}

// No flow reached the fabric: the hosts are the problem, not a cable (exit 3, not 1), and the
// summary still lists every flow with its reason.
TEST_P(Coordinator, EveryFlowFailedOnItsHostsEnvironmentExitsThree) {
  ibburn::testing::TempDir dir;
  ibburn::testing::ThreadJob job{4, two_stages(), {10, 10, 10, 10}, -1, nullptr};
  job.ranks_per_host = GetParam();
  job.setup_failure = "ibv_reg_mr of 4194304 bytes failed: Cannot allocate memory; RLIMIT_MEMLOCK is 64 KiB";
  EXPECT_EQ(ibburn::testing::run_thread_job(job, options(dir.path())), kExitEnvironment);
  const BurnSummary s = load_summary(dir.file("summary.json"));
  ASSERT_EQ(s.flows.size(), 8u);
  for (const auto& f : s.flows) {
    EXPECT_EQ(f.verdict, Verdict::Failed);
    EXPECT_NE(f.reason.find("RLIMIT_MEMLOCK is 64 KiB"), std::string::npos) << f.reason;
  }
}

// Each rank reads its port's counters at set-up and report: the rise is in its endpoint's
// record, and an error counter that rose fails the run though every flow was fast.
TEST_P(Coordinator, APortsOwnErrorCountersRisingIsAFinding) {
  ibburn::testing::TempDir dir;
  ibburn::testing::ThreadJob job{4, two_stages(), {10, 10, 10, 10}, -1, nullptr};
  job.ranks_per_host = GetParam();
  job.erring_rank = 1;
  EXPECT_EQ(ibburn::testing::run_thread_job(job, options(dir.path())), kExitFindings);
  const BurnSummary s = load_summary(dir.file("summary.json"));
  EXPECT_EQ(s.counts.at("pass"), 8);
  EXPECT_FALSE(s.pass);
  ASSERT_EQ(s.endpoints.size(), 4u);
  EXPECT_EQ(s.endpoints[1].port_counters.at("rcvd_seq_err"), 2u);  // one per stage
  EXPECT_EQ(s.endpoints[0].port_counters.at("rcvd_seq_err"), 0u);
  EXPECT_EQ(s.endpoints[0].port_counters.at("sent_pkts"), 200u);
}

INSTANTIATE_TEST_SUITE_P(Control, Coordinator, ::testing::Values(1, 2), [](const auto& p) {
  return p.param == 1 ? std::string("Direct") : std::string("ThroughHostRelay");
});

// 512 ranks in hosts of 8, every host but rank 0's behind its relay, the ranks speaking the
// protocol from one thread (protocol_ranks.h, what the control-plane benchmark runs at 32k):
// rank 0 holds 71 sockets, and every flow of the stage is measured and passes.
TEST(CoordinatorAtScale, FiveHundredTwelveRanksBehindSixtyThreeRelays) {
  ibburn::testing::TempDir dir;
  constexpr int kRanks = 512, kPerHost = 8;
  CoordinatorInput in;
  in.ranks = kRanks;
  Stage pairs{"pairs", {}};
  for (int r = 0; r + 1 < kRanks; r += 2) pairs.flows.push_back({r, r + 1, true, 1});
  in.plan = {"scale", {pairs}};
  std::uint16_t port = 0;
  in.listener = listen_tcp("127.0.0.1", 0, 1024, &port);
  in.token = "t0ken";
  const auto deadline = Clock::now() + 10s;
  std::vector<ibburn::testing::ProtocolRank> ranks;
  {
    const ibburn::testing::HostRelays relays(kPerHost, 0, kRanks / kPerHost, port, deadline);
    for (int r = 0; r < kRanks; ++r)
      ranks.push_back({r, "h" + std::to_string(r / kPerHost), relays.connect(r, deadline)});
    std::thread speaking([&] { ibburn::testing::run_protocol_ranks(ranks, "t0ken", 100, nullptr); });
    BurnOptions o = options(dir.path());
    o.duration = 1500ms;
    EXPECT_EQ(run_coordinator(std::move(in), o), kExitOk);
    speaking.join();
  }
  const BurnSummary s = load_summary(dir.file("summary.json"));
  EXPECT_TRUE(s.pass);
  EXPECT_TRUE(s.lost_ranks.empty());
  ASSERT_EQ(s.flows.size(), static_cast<std::size_t>(kRanks));  // 256 flows, both ways
  for (const auto& f : s.flows) EXPECT_EQ(f.verdict, Verdict::Pass) << f.from << "->" << f.to;
}
