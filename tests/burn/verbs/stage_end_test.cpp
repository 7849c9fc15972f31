// The end of a stage through the whole worker (burn/worker.cpp) on rate-limited soft HCA ports:
// ranks run run_worker in threads, each bound to its own soft port, and the test plays rank 0's
// coordinator over socketpairs. Writes are still in flight when a stage stops; a slow flow must
// come out slow with its bytes, never failed (review F2).
#include <sys/socket.h>

#include <gtest/gtest.h>

#include <iostream>
#include <thread>

#include "burn/control_channel.h"
#include "burn/verbs/verbs_transport_factory.h"
#include "burn/verdict.h"
#include "burn/worker.h"
#include "tests/burn/verbs/soft_hca.h"

namespace ibburn::testing {
namespace {

using namespace std::chrono_literals;
using namespace burn;

class SoftRanks {
 public:
  SoftRanks(int ranks, TransportOptions o) {
    options_.quiet = true;
    for (int r = 0; r < ranks; ++r) hca.add_device("soft" + std::to_string(r), SoftPort{.lid = uint16_t(r + 1)});
    for (int r = 0; r < ranks; ++r) {
      o.bind = "soft" + std::to_string(r) + ":1";
      transports_.push_back(verbs::make_verbs_transport(hca.api(), o));
      endpoints.push_back(transports_.back()->local_endpoint());
      int sv[2];
      if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) throw std::runtime_error("socketpair");
      coordinator_.push_back(std::make_unique<Channel>(Fd(sv[0])));
      workers_.push_back(std::make_unique<Channel>(Fd(sv[1])));
    }
    for (int r = 0; r < ranks; ++r) {
      threads_.emplace_back([this, r] { run_worker(r, *workers_[r], *transports_[r], options_); });
    }
  }
  ~SoftRanks() {
    for (auto& c : coordinator_) c->send(Done{}, Clock::now() + 5s);
    for (auto& t : threads_) t.join();
  }

  // Runs `stage` as rank 0's coordinator would (stage 1) and merges the ranks' reports.
  StageResult run(const Stage& stage, std::chrono::milliseconds duration) {
    std::map<int, std::vector<FlowSetup>> flows_of;
    for (uint32_t id = 0; id < stage.flows.size(); ++id) {
      const Flow& f = stage.flows[id];
      const FlowSetup s{id, f.src, f.dst, f.bidirectional, f.streams};
      flows_of[f.src].push_back(s);
      flows_of[f.dst].push_back(s);
    }
    std::map<std::pair<int, uint32_t>, std::string> address;  // (rank, flow) -> its blob
    for (auto& [r, flows] : flows_of) coordinator_[r]->send(Setup{1, flows}, Clock::now() + 5s);
    for (auto& [r, flows] : flows_of) {
      const Addresses a = next<Addresses>(r);
      for (auto& [id, hex] : a.addrs) address[{r, id}] = hex;
    }
    for (auto& [r, flows] : flows_of) {
      Connect c{1, {}, {}};
      for (const FlowSetup& f : flows) c.peers[f.id] = address.at({r == f.src ? f.dst : f.src, f.id});
      coordinator_[r]->send(c, Clock::now() + 5s);
    }
    for (auto& [r, flows] : flows_of) EXPECT_TRUE(next<Connected>(r).failures.empty());
    for (auto& [r, flows] : flows_of) coordinator_[r]->send(Start{1, duration.count()}, Clock::now() + 5s);
    std::vector<RankReport> reports;
    for (auto& [r, flows] : flows_of) reports.push_back({r, next<Report>(r).sides});
    return merge_stage(1, stage, reports, {}, false);
  }

  SoftHca hca;
  std::vector<EndpointInfo> endpoints;

 private:
  // The next message of type T from rank r (samples skipped), bounded against hangs.
  template <class T>
  T next(int r) {
    const auto deadline = Clock::now() + 30s;
    while (Clock::now() < deadline && !coordinator_[r]->closed()) {
      for (Message& m : coordinator_[r]->poll(50)) {
        if (auto* t = std::get_if<T>(&m)) return *t;
      }
    }
    throw std::runtime_error("rank " + std::to_string(r) + " did not answer");
  }

  BurnOptions options_;
  std::vector<std::unique_ptr<Transport>> transports_;
  std::vector<std::unique_ptr<Channel>> coordinator_, workers_;
  std::vector<std::thread> threads_;
};

// The review's case scaled down so the tests stay quick (and under TSan): 64 KiB messages, 16
// in flight per QP, an immediate every 8. Two QPs through a 0.125 Gb/s port: each QP's
// immediates come 512 KiB / 62.5 Mb/s = 67 ms apart, beyond the old 50 ms quiet rule, and
// 2 MiB (134 ms) is still in flight at stop. The old teardown failed this flow with "transport
// retries exhausted" (checked against the code before the fix).
TransportOptions slow_flow_options() {
  TransportOptions o;
  o.message_size = 64u << 10;
  o.extra = {{"tx_depth", "16"}, {"signal_every", "8"}};
  return o;
}

constexpr double kLimitGbps = 0.125;

TEST(StageEnd, SlowFlowIsSlowWithItsBytesNeverFailed) {
  SoftRanks ranks(2, slow_flow_options());
  ranks.hca.set_rate_limit("soft1", kLimitGbps);
  const Stage stage{"slow", {Flow{0, 1, false, 2}}};
  const StageResult result = ranks.run(stage, 400ms);
  const DirectionResult& d = result.flows.at(0).directions.at(0);
  EXPECT_EQ(d.status, DirectionStatus::Ok) << d.reason;
  EXPECT_EQ(d.reason, "");
  EXPECT_GT(d.bytes, 0u);
  std::cout << "slow flow: " << d.gbps << " Gb/s through a " << kLimitGbps << " Gb/s port\n";
  EXPECT_LT(d.gbps, 1.1 * kLimitGbps);  // the receiver counts what arrived by its stop
  const auto verdicts = judge_stage(result, ranks.endpoints, VerdictOptions{});
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].verdict, Verdict::Slow) << verdicts[0].reason;  // 0.125 of 400 Gb/s
}

// Three senders, one QP each, share a port at 3 x 62.5 Mb/s: an immediate every 67 ms each,
// 3 x 1 MiB in flight at stop.
TEST(StageEnd, IncastIntoOneRateLimitedPortEndsOk) {
  SoftRanks ranks(4, slow_flow_options());
  constexpr double kPortGbps = 3 * kLimitGbps / 2;
  ranks.hca.set_rate_limit("soft0", kPortGbps);
  const Stage stage{"incast", {Flow{1, 0, false, 1}, Flow{2, 0, false, 1}, Flow{3, 0, false, 1}}};
  const StageResult result = ranks.run(stage, 400ms);
  double total = 0;
  uint64_t bytes = 0;
  for (const FlowResult& f : result.flows) {
    const DirectionResult& d = f.directions.at(0);
    EXPECT_EQ(d.status, DirectionStatus::Ok) << d.reason;
    total += d.gbps;
    bytes += d.bytes;
  }
  EXPECT_GT(bytes, 0u);
  std::cout << "incast: " << total << " Gb/s in all into a " << kPortGbps << " Gb/s port\n";
  EXPECT_LT(total, 1.1 * kPortGbps);  // the three share the port
}

}  // namespace
}  // namespace ibburn::testing
