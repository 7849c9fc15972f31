// Fabric file speed at scale: a 64k-HCA fat tree (8,192 hosts x 8 HCAs, 3 tiers of 64-port
// switches) loaded from the ibnetdiscover text the wiring generator writes, written and
// reloaded as ibnetdiscover text, and written and reloaded as a JSON snapshot. Prints each
// time (median of 3; wall clock and CPU time, since the build machines are shared and wall
// time there mostly measures the neighbours) against the load targets and the process's peak
// RSS. The files are then loaded once per fresh process, as `ibburn` loads them: a reader
// that reuses memory it touched in an earlier round hides the page faults a real load pays.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "topo/fabric_io.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

using namespace ibburn;
using Clock = std::chrono::steady_clock;

namespace {

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct Time {
  double wall_ms, cpu_ms;
};

// Median of 3 runs, by CPU time.
template <typename F>
Time measure(F&& f) {
  std::vector<Time> t;
  for (int i = 0; i < 3; ++i) {
    auto w0 = Clock::now();
    double c0 = cpu_ms();
    f();
    t.push_back({std::chrono::duration<double, std::milli>(Clock::now() - w0).count(), cpu_ms() - c0});
  }
  std::sort(t.begin(), t.end(), [](const Time& a, const Time& b) { return a.cpu_ms < b.cpu_ms; });
  return t[1];
}

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

double rusage_ms(const rusage& u) {
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// The child's side of a fresh-process load: user + system CPU of reading and loading `path`,
// written to stdout as "<ms>".
int load_once(const char* path) {
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  topo::Fabric f = topo::load_fabric_file(path);
  getrusage(RUSAGE_SELF, &after);
  std::printf("%.1f\n", rusage_ms(after) - rusage_ms(before));
  return f.size() ? 0 : 1;
}

// Median CPU of 3 fresh processes each loading `path` once; -1 when a child failed.
double fresh_load_ms(const std::string& path) {
  std::vector<double> ms;
  for (int i = 0; i < 3; ++i) {
    int out[2];
    if (pipe(out) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    const char* argv[] = {"fabric_io_bench", "--load-once", path.c_str(), nullptr};
    pid_t pid = 0;
    int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    char buf[64] = {};
    ssize_t n = rc == 0 ? read(out[0], buf, sizeof buf - 1) : -1;
    close(out[0]);
    int status = 0;
    if (rc != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || n <= 0)
      return -1;
    ms.push_back(std::atof(buf));
  }
  std::sort(ms.begin(), ms.end());
  return ms[1];
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

void row(const char* what, Time t, size_t bytes) {
  std::printf("  %-26s cpu %7.1f ms  wall %7.1f ms  %6.1f MB  %5.0f MB/s of cpu\n", what, t.cpu_ms, t.wall_ms,
              bytes / 1e6, bytes / 1e3 / t.cpu_ms);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--load-once") == 0) return load_once(argv[2]);
  constexpr double kLoadTargetMs = 2000;     // ibnetdiscover text
  constexpr double kJsonLoadTargetMs = 500;  // JSON snapshot, one load per process (issue #24)
  wiring::FatTreeSpec spec;
  spec.tiers = 3;
  spec.radix = 64;
  spec.hosts = 8192;
  spec.hcas_per_host = 8;
  auto design = wiring::generate_fat_tree(spec);
  std::string netfile = wiring::to_ibsim_netfile(design);

  topo::Fabric fabric;
  Time load = measure([&] { fabric = topo::parse_fabric_text(netfile, "64k.net"); });
  std::string text;
  Time write_text = measure([&] { text = topo::to_ibnetdiscover_text(fabric); });
  Time reload_text = measure([&] { topo::parse_fabric_text(text, "64k.topo"); });
  std::string json;
  Time write_json = measure([&] { json = topo::to_json_text(fabric); });
  Time load_json = measure([&] { topo::parse_fabric_text(json, "64k.json"); });

  std::printf("fabric I/O: %zu nodes (%zu switches, %zu CAs), %zu links\n", fabric.size(), fabric.switch_count(),
              fabric.ca_count(), fabric.links().size());
  row("load generated netfile", load, netfile.size());
  row("write ibnetdiscover text", write_text, text.size());
  row("load ibnetdiscover text", reload_text, text.size());
  row("write JSON snapshot", write_json, json.size());
  row("load JSON snapshot", load_json, json.size());
  std::printf("  text load: %.0f ms of CPU = %.2fx of the %.0f ms target; peak RSS %ld MiB (whole run)\n", load.cpu_ms,
              load.cpu_ms / kLoadTargetMs, kLoadTargetMs, peak_rss_mib());

  char dir_template[] = "/tmp/fabric_io_bench.XXXXXX";
  if (!mkdtemp(dir_template)) return 2;
  const std::string dir = dir_template, text_path = dir + "/64k.topo", json_path = dir + "/64k.json";
  write_file(text_path, text);
  write_file(json_path, json);
  const double fresh_text = fresh_load_ms(text_path), fresh_json = fresh_load_ms(json_path);
  std::remove(text_path.c_str());
  std::remove(json_path.c_str());
  rmdir(dir.c_str());
  std::printf("one load per fresh process (user + sys, median of 3):\n");
  std::printf("  %-26s cpu %7.1f ms\n", "load ibnetdiscover text", fresh_text);
  std::printf("  %-26s cpu %7.1f ms = %.2fx of the %.0f ms target\n", "load JSON snapshot", fresh_json,
              fresh_json / kJsonLoadTargetMs, kJsonLoadTargetMs);
  const bool text_ok = load.cpu_ms <= kLoadTargetMs && reload_text.cpu_ms <= kLoadTargetMs;
  const bool json_ok = fresh_json >= 0 && fresh_json <= kJsonLoadTargetMs;
  return text_ok && json_ok ? 0 : 1;
}
