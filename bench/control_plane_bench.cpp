// Rank 0's control plane at scale (#17): the coordinator with N ranks' real workers as
// threads of this process over loopback TCP, on the paced transport (no data plane), through
// hello, set-up, address exchange, connect, a stage of per-second samples and the reports.
// Prints, per N: time from start to stage 1, rank 0's CPU (its coordinator thread) per second
// of the stage, the wall time and peak RSS. Usage: control_plane_bench [RANKS...] (default
// 1024 4096). The ranks' own threads share the machine's cores with rank 0, so the numbers
// are an upper bound for rank 0 alone.
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "burn/engine.h"
#include "tests/burn/thread_job.h"

using namespace std::chrono_literals;
namespace burn = ibburn::burn;

namespace {

double thread_cpu_s(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

double now_s() { return std::chrono::duration<double>(burn::Clock::now().time_since_epoch()).count(); }

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

void run(int ranks, const std::string& out, std::chrono::milliseconds duration) {
  ibburn::testing::ThreadJob job;
  job.ranks = ranks;
  job.rates.assign(ranks, 400);
  burn::Stage pairs{"pairs", {}};
  for (int r = 0; r + 1 < ranks; r += 2) pairs.flows.push_back({r, r + 1, true, 1});
  job.plan = {"bench", {pairs}};
  job.first_start_ns = std::make_shared<std::atomic<long long>>(0);

  burn::BurnOptions o;
  o.out_dir = out;
  o.duration = duration;
  o.timeout = 120s;
  o.stall_timeout = 600s;
  o.quiet = true;
  o.host_check = false;

  clockid_t rank0{};
  pthread_getcpuclockid(pthread_self(), &rank0);
  std::atomic<bool> done{false};
  double cpu_at_stage1 = -1, wall_at_stage1 = 0;
  // Reads rank 0's CPU clock the moment stage 1 starts (10 ms resolution).
  std::thread watch([&] {
    while (!done && *job.first_start_ns == 0) std::this_thread::sleep_for(10ms);
    cpu_at_stage1 = thread_cpu_s(rank0);
    wall_at_stage1 = now_s();
  });
  const double t0 = now_s(), cpu0 = thread_cpu_s(rank0);
  const int code = ibburn::testing::run_thread_job(job, o);
  const double t1 = now_s(), cpu1 = thread_cpu_s(rank0);
  done = true;
  watch.join();
  const double first = *job.first_start_ns / 1e9;
  std::printf(
      "%6d ranks: time to stage 1 %.2f s, rank 0 CPU during the stage %.3f cores (%.2f s over %.1f s), "
      "set-up CPU %.2f s, wall %.1f s, peak RSS %ld MiB, exit %d\n",
      ranks, first > 0 ? first - t0 : -1.0, (cpu1 - cpu_at_stage1) / (t1 - wall_at_stage1), cpu1 - cpu_at_stage1,
      t1 - wall_at_stage1, cpu_at_stage1 - cpu0, t1 - t0, peak_rss_mib(), code);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  rlimit nofile{};
  getrlimit(RLIMIT_NOFILE, &nofile);
  nofile.rlim_cur = nofile.rlim_max;  // two sockets per rank: rank 0's end and the rank's
  setrlimit(RLIMIT_NOFILE, &nofile);
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1024, 4096};
  const std::string out = std::filesystem::temp_directory_path() / ("ibburn-control-plane-" + std::to_string(getpid()));
  for (int n : sizes) {
    if (2 * static_cast<rlim_t>(n) + 64 > nofile.rlim_cur) {
      std::printf("%6d ranks: not run: needs %d file descriptors, the hard limit here is %lu\n", n, 2 * n + 64,
                  static_cast<unsigned long>(nofile.rlim_cur));
      continue;
    }
    run(n, out, 10s);
  }
  std::filesystem::remove_all(out);
}
