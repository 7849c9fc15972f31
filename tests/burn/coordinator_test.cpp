// Rank 0's coordinator with every rank's worker as threads of this process over the real
// control channel, on a transport without a data plane (paced_transport.h): the stage loop,
// samples, reports, a lost rank and the summary it writes, under TSan in CI.
#include <thread>

#include <gtest/gtest.h>

#include "burn/control_channel.h"
#include "burn/coordinator.h"
#include "burn/summary.h"
#include "burn/worker.h"
#include "common/exit_codes.h"
#include "tests/burn/paced_transport.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::burn;
using namespace std::chrono_literals;

namespace {

struct Job {
  int ranks = 4;
  Plan plan;
  std::vector<double> rates;  // Gb/s by rank
  int lost_rank = -1;         // says hello, then closes its channel when its stage starts
};

int run_job(const Job& job, const BurnOptions& o) {
  CoordinatorInput in;
  in.ranks = job.ranks;
  in.plan = job.plan;
  std::uint16_t port = 0;
  in.listener = listen_tcp("127.0.0.1", 0, 1024, &port);
  in.token = "t0ken";
  auto rates = std::make_shared<const std::vector<double>>(job.rates);
  std::vector<std::thread> ranks;
  for (int r = 0; r < job.ranks; ++r)
    ranks.emplace_back([&, r] {
      ibburn::testing::PacedTransport transport(r, rates);
      Channel ch = connect_control({"127.0.0.1"}, port, Clock::now() + 5s);
      Hello hello;
      hello.rank = r;
      hello.token = "t0ken";
      hello.endpoint = transport.local_endpoint();
      ch.send(hello, Clock::now() + 5s);
      if (r != job.lost_rank) {
        run_worker(r, ch, transport, o);
        return;
      }
      while (!ch.closed())
        for (const auto& m : ch.poll(50)) {
          if (std::holds_alternative<Start>(m)) ch.close("the test kills it");
          if (const auto* s = std::get_if<Setup>(&m)) {
            Addresses a{s->stage, {}, {}};
            for (const auto& f : s->flows) a.addrs[f.id] = "00";
            ch.send(a, Clock::now() + 1s);
          }
          if (const auto* c = std::get_if<Connect>(&m)) ch.send(Connected{c->stage, {}}, Clock::now() + 1s);
        }
    });
  const int code = run_coordinator(std::move(in), o);
  for (auto& t : ranks) t.join();
  return code;
}

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

}  // namespace

TEST(Coordinator, SlowRankIsNamedAndTheSummaryReadsBackTyped) {
  ibburn::testing::TempDir dir;
  const int code = run_job({4, two_stages(), {10, 10, 10, 2.5}, -1}, options(dir.path()));
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

TEST(Coordinator, LostRankFailsOnlyItsFlowsAndTheRunGoesOn) {
  ibburn::testing::TempDir dir;
  const int code = run_job({4, two_stages(), {10, 10, 10, 10}, 1}, options(dir.path()));
  EXPECT_EQ(code, kExitFindings);
  const BurnSummary s = load_summary(dir.file("summary.json"));
  EXPECT_EQ(s.stages_run, 2);
  ASSERT_EQ(s.lost_ranks.size(), 1u);
  EXPECT_EQ(s.lost_ranks[0].rank, 1);
  EXPECT_EQ(s.endpoints[1].verdict, Verdict::Failed);
  for (int r : {0, 2, 3}) {
    EXPECT_NE(s.endpoints[r].verdict, Verdict::Failed) << "rank " << r;
  }
  for (const auto& f : s.flows)
    if (f.from != 1 && f.to != 1) {
      EXPECT_EQ(f.verdict, Verdict::Pass) << f.from << "->" << f.to;
    }
}
