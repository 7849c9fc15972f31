// Fabric file speed at scale: a 64k-HCA fat tree (8,192 hosts x 8 HCAs, 3 tiers of 64-port
// switches) loaded from the ibnetdiscover text the wiring generator writes, written and
// reloaded as ibnetdiscover text, and written and reloaded as a JSON snapshot. Prints each
// time (median of 3; wall clock and CPU time, since the build machines are shared and wall
// time there mostly measures the neighbours) against the load target (2 s of CPU) and the
// process's peak RSS.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

void row(const char* what, Time t, size_t bytes) {
  std::printf("  %-26s cpu %7.1f ms  wall %7.1f ms  %6.1f MB  %5.0f MB/s of cpu\n", what, t.cpu_ms, t.wall_ms,
              bytes / 1e6, bytes / 1e3 / t.cpu_ms);
}

}  // namespace

int main() {
  constexpr double kLoadTargetMs = 2000;
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
  return load.cpu_ms <= kLoadTargetMs && reload_text.cpu_ms <= kLoadTargetMs ? 0 : 1;
}
