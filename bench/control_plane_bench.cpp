// Rank 0's control plane at scale (#17). This process runs the real coordinator. Child
// processes (at most 4,096 ranks each, so no process needs more file descriptors than the
// machine gives) run the ranks: protocol ranks (tests/burn/protocol_ranks.h) that speak the
// control protocol with no data plane, and, with hosts of K ranks, each host's real relay
// (burn/control_relay.h) on a thread, as the host's first rank runs it. Ranks of rank 0's host
// connect directly, as in a real job. The run goes through hello, set-up, address exchange,
// connect, one 10 s stage of N/2 bidirectional flows with per-second samples, the last rank
// dying 2 s into the stage (behind a relay when there are relays), the reports and the
// summary; then once more at the largest size with Ctrl-C on rank 0 5 s into the stage.
// Prints per configuration, for rank 0 (its coordinator thread's CPU clock; peak RSS is this
// process, rank 0 alone): the sockets it held, the time from start to stage 1 and its CPU in
// that time, its CPU per second while only samples flow (seconds 2-8 of the stage) with the
// samples per second the ranks sent, and its CPU for the whole stage with the reports and the
// summaries. The ranks and relays share this machine's cores with rank 0: on a small machine
// they, not rank 0, set the pace; their CPU is printed too.
// Usage: control_plane_bench [--per-host K] RANKS...   (default: 1024 4096 32768, each direct
// and with hosts of 8).
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "burn/coordinator.h"
#include "burn/summary.h"
#include "common/interrupt.h"
#include "tests/burn/host_relays.h"
#include "tests/burn/protocol_ranks.h"

using namespace std::chrono_literals;
namespace burn = ibburn::burn;

namespace {

constexpr int kRanksPerProcess = 4096;
constexpr double kGbps = 400;

double thread_cpu_s(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

double now_s() { return std::chrono::duration<double>(burn::Clock::now().time_since_epoch()).count(); }

// CPU of the children waited for so far.
double children_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

// One child: the hosts [first, last) of `per_host` ranks each; host 0 is rank 0's.
[[noreturn]] void run_hosts(int ranks, int per_host, int first, int last, std::uint16_t port,
                            ibburn::testing::ProtocolCounters* counters) {
  const auto deadline = burn::Clock::now() + 120s;
  {
    const ibburn::testing::HostRelays relays(per_host, first, last, port, deadline);
    std::vector<ibburn::testing::ProtocolRank> mine;
    for (int r = first * per_host; r < std::min(ranks, last * per_host); ++r)
      mine.push_back({r, "h" + std::to_string(r / per_host), relays.connect(r, deadline)});
    ibburn::testing::run_protocol_ranks(mine, "t0ken", kGbps, counters, ranks - 1);
  }
  std::fflush(nullptr);
  std::_Exit(0);
}

// interrupt: Ctrl-C on rank 0 five seconds into the stage (the last run: the flag stays set).
void run(int ranks, int per_host, const std::string& out, bool interrupt) {
  using ibburn::testing::ProtocolCounters;
  auto* counters =
      new (mmap(nullptr, sizeof(ProtocolCounters), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0))
          ProtocolCounters;

  burn::CoordinatorInput in;
  in.ranks = ranks;
  burn::Stage pairs{"pairs", {}};
  for (int r = 0; r + 1 < ranks; r += 2) pairs.flows.push_back({r, r + 1, true, 1});
  in.plan = {"bench", {pairs}};
  std::uint16_t port = 0;
  in.listener = burn::listen_tcp("127.0.0.1", 0, 4096, &port);
  in.token = "t0ken";
  burn::BurnOptions o;
  o.out_dir = out;
  o.duration = 10s;
  o.timeout = 120s;
  o.stall_timeout = 600s;
  o.quiet = true;
  o.host_check = false;

  std::fflush(stdout);                          // not once more from each child
  const double kids_before = children_cpu_s();  // the earlier runs' children
  const double t0 = now_s();
  const int hosts = (ranks + per_host - 1) / per_host;
  const int processes = (ranks + kRanksPerProcess - 1) / kRanksPerProcess;
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const int first = hosts * p / processes, last = hosts * (p + 1) / processes;
    const pid_t pid = fork();
    if (pid == 0) {
      // Rank 0 runs on a host of its own in a real job: here the ranks yield the CPU to it.
      if (::nice(19) == -1) std::perror("nice");
      in.listener.reset();
      run_hosts(ranks, per_host, first, last, port, counters);
    }
    children.push_back(pid);
  }

  clockid_t rank0{};
  pthread_getcpuclockid(pthread_self(), &rank0);
  std::atomic<bool> done{false};
  // Rank 0's CPU clock and the samples sent, at stage 1's start and over seconds 2-8 of the
  // stage, when only samples flow (10 ms resolution).
  double cpu_at_stage1 = -1, cpu_a = 0, cpu_b = 0, wall_a = 0, wall_b = 0, interrupted_at = 0;
  long long samples_a = 0, samples_b = 0;
  std::thread watch([&] {
    while (!done && counters->first_start_ns == 0) std::this_thread::sleep_for(10ms);
    cpu_at_stage1 = thread_cpu_s(rank0);
    const double s1 = now_s();
    while (!done && now_s() < s1 + 2) std::this_thread::sleep_for(10ms);
    cpu_a = thread_cpu_s(rank0), wall_a = now_s(), samples_a = counters->samples;
    if (interrupt) {
      while (!done && now_s() < s1 + 5) std::this_thread::sleep_for(10ms);
      interrupted_at = now_s();
      ibburn::request_interrupt(SIGINT);
      return;
    }
    while (!done && now_s() < s1 + 8) std::this_thread::sleep_for(10ms);
    cpu_b = thread_cpu_s(rank0), wall_b = now_s(), samples_b = counters->samples;
  });
  const double cpu0 = thread_cpu_s(rank0);
  const int code = burn::run_coordinator(std::move(in), o);
  const double t1 = now_s(), cpu1 = thread_cpu_s(rank0);
  done = true;
  watch.join();
  for (pid_t c : children) waitpid(c, nullptr, 0);
  const double kids_cpu = children_cpu_s() - kids_before;
  const double first = counters->first_start_ns / 1e9;
  const double window = wall_b - wall_a, samples_per_s = (samples_b - samples_a) / window;
  const double cores = (cpu_b - cpu_a) / window;
  munmap(counters, sizeof(ProtocolCounters));
  const int sockets = per_host > 1 ? std::min(ranks, per_host) + hosts - 1 : ranks;
  const std::string config = per_host > 1 ? "hosts of " + std::to_string(per_host) + " behind relays" : "direct";
  const burn::BurnSummary summary = burn::load_summary(out + "/summary.json");
  std::string lost;
  for (const auto& l : summary.lost_ranks) lost += " rank " + std::to_string(l.rank) + " (" + l.reason + ")";
  if (interrupt) {
    std::printf(
        "%6d ranks, %s: Ctrl-C on rank 0 5 s into the stage: it returned %.2f s later with exit %d; summary.json "
        "interrupted=%s complete=%s\n",
        ranks, config.c_str(), t1 - interrupted_at, code, summary.interrupted ? "true" : "false",
        summary.complete ? "true" : "false");
    return;
  }
  std::printf(
      "%6d ranks, %s: rank 0 holds %d sockets | time to stage 1 %.2f s (rank 0's set-up CPU %.2f s) | while "
      "samples flow: rank 0 %.3f cores, the ranks sent %.0f samples/s | the stage, its reports and summaries: "
      "rank 0 CPU %.2f s | wall %.1f s, rank 0 peak RSS %ld MiB, the ranks' and relays' CPU %.1f s | lost:%s | "
      "exit %d\n",
      ranks, config.c_str(), sockets, first > 0 ? first - t0 : -1.0, cpu_at_stage1 - cpu0, cores, samples_per_s,
      cpu1 - cpu_at_stage1, t1 - t0, peak_rss_mib(), kids_cpu, lost.empty() ? " none" : lost.c_str(), code);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  rlimit nofile{};
  getrlimit(RLIMIT_NOFILE, &nofile);
  nofile.rlim_cur = nofile.rlim_max;
  setrlimit(RLIMIT_NOFILE, &nofile);
  std::vector<int> sizes;
  int per_host = 0;  // 0 = each size both ways
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--per-host" && i + 1 < argc)
      per_host = std::atoi(argv[++i]);
    else
      sizes.push_back(std::atoi(argv[i]));
  }
  if (sizes.empty()) sizes = {1024, 4096, 32768};
  const std::string out = std::filesystem::temp_directory_path() / ("ibburn-control-plane-" + std::to_string(getpid()));
  auto runnable = [&](int n, int k) {
    const int sockets = k > 1 ? (n + k - 1) / k + k : n;  // rank 0's; a child's are fewer
    if (static_cast<rlim_t>(sockets) + 64 <= nofile.rlim_cur) return true;
    std::printf("%6d ranks, %s: not run: rank 0 would hold %d sockets, the open-files limit here is %lu\n", n,
                k > 1 ? "behind relays" : "direct", sockets, static_cast<unsigned long>(nofile.rlim_cur));
    return false;
  };
  const std::vector<int> configs = per_host ? std::vector<int>{per_host} : std::vector<int>{1, 8};
  for (int n : sizes)
    for (int k : configs)
      if (runnable(n, k)) run(n, k, out, false);
  if (runnable(sizes.back(), configs.back())) run(sizes.back(), configs.back(), out, true);
  std::filesystem::remove_all(out);
}
