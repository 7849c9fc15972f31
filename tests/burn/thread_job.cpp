#include "tests/burn/thread_job.h"

#include <algorithm>
#include <thread>

#include "burn/control_channel.h"
#include "tests/burn/host_relays.h"
#include "burn/coordinator.h"
#include "burn/worker.h"
#include "tests/burn/paced_transport.h"

namespace ibburn::testing {

using namespace std::chrono_literals;
using burn::Clock;

namespace {

// A rank that dies as its stage starts: answers set-up and connect, then closes its channel.
void lost_rank(burn::Channel& ch) {
  while (!ch.closed())
    for (const auto& m : ch.poll(50)) {
      if (std::holds_alternative<burn::Start>(m)) ch.close("the test kills it");
      if (const auto* s = std::get_if<burn::Setup>(&m)) {
        burn::Addresses a{s->stage, {}, {}, {}, {}};
        for (const auto& f : s->flows) a.addrs[f.id] = "00";
        ch.send(a, Clock::now() + 1s);
      }
      if (const auto* c = std::get_if<burn::Connect>(&m)) ch.send(burn::Connected{c->stage, {}}, Clock::now() + 1s);
    }
}

}  // namespace

int run_thread_job(const ThreadJob& job, const burn::BurnOptions& o) {
  burn::CoordinatorInput in;
  in.ranks = job.ranks;
  in.plan = job.plan;
  std::uint16_t port = 0;
  in.listener = burn::listen_tcp("127.0.0.1", 0, 4096, &port);
  in.token = "t0ken";
  const int per_host = std::max(1, job.ranks_per_host);
  const HostRelays relays(per_host, 0, (job.ranks + per_host - 1) / per_host, port, Clock::now() + o.timeout);
  auto rates = std::make_shared<const std::vector<double>>(job.rates);
  std::vector<std::thread> ranks;
  for (int r = 0; r < job.ranks; ++r)
    ranks.emplace_back([&, r] {
      PacedTransport transport(r, rates, job.first_start_ns);
      if (!job.setup_failure.empty()) transport.fail_setup(job.setup_failure);
      if (r == job.erring_rank) transport.count_errors();
      burn::Channel ch = relays.connect(r, Clock::now() + o.timeout);
      burn::Hello hello;
      hello.rank = r;
      hello.token = "t0ken";
      hello.endpoint = transport.local_endpoint();
      ch.send(hello, Clock::now() + 5s);
      if (r == job.lost_rank)
        lost_rank(ch);
      else
        burn::run_worker(r, ch, transport, o);
    });
  const int code = burn::run_coordinator(std::move(in), o);
  for (auto& t : ranks) t.join();
  return code;
}

}  // namespace ibburn::testing
