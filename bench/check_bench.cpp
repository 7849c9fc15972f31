// topo check speed: the field-notes fabric (4,088 HCAs, 320 switches) and a 64k-HCA fat tree,
// each loaded from its generated ibnetdiscover text, then checked against its plan with the
// node-name-map and with switch names inferred. Prints times against the targets
// (<= 50 ms and <= 1 s after loading) and the process's peak RSS.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "tests/topo_check/fabric_builder.h"
#include "topo_check/check_wiring.h"
#include "topo/fabric_io.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/name_inference.h"

using namespace ibburn;
using Clock = std::chrono::steady_clock;

namespace {
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Median wall and CPU time of `runs` runs: CPU time is what the code costs when the machine is
// shared (wall time grows with the load).
struct Times {
  double wall = 0, cpu = 0;
};
template <typename F>
Times median_ms(int runs, F&& f) {
  std::vector<double> wall, cpu;
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    double c0 = cpu_ms();
    f();
    cpu.push_back(cpu_ms() - c0);
    wall.push_back(ms_since(t0));
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

int bench(const char* label, wiring::FatTreeSpec spec, double target_ms) {
  // The text is an ibsim netfile, which simulates HDR at most: plan HDR so the fabric is clean.
  spec.rate = {topo::Width::X4, topo::Speed::HDR};
  auto design = wiring::generate_fat_tree(spec);
  wiring::NetfileOptions generic;
  generic.generic_switch_descriptions = true;
  std::string text = wiring::to_ibsim_netfile(design, generic);
  auto t0 = Clock::now();
  topo::Fabric fabric = topo::parse_fabric_text(text, label);
  double load_ms = ms_since(t0);
  topo::Fabric named = fabric;
  wiring::node_name_map(design).apply(named);
  size_t findings = 0;
  Times check = median_ms(5, [&] { findings = topo_check::check_wiring(named, design.wiring).size(); });
  Times infer = median_ms(3, [&] {
    topo::Fabric f = fabric;
    wiring::name_switches_from_plan(f, design.wiring);
  });
  topo::Fabric inferred = fabric;
  wiring::name_switches_from_plan(inferred, design.wiring);
  size_t findings_inferred = topo_check::check_wiring(inferred, design.wiring).size();
  std::printf(
      "%s: %zu HCAs, %zu switches, %zu cables; load %.0f ms\n"
      "  check           %7.1f ms wall %7.1f ms CPU (target %.0f ms: CPU %.2fx of it)\n"
      "  name inference  %7.1f ms wall %7.1f ms CPU\n"
      "  findings %zu with the map, %zu with inferred names; peak RSS %ld MiB\n",
      label, design.hcas.size(), design.switches.size(), design.wiring.cables.size(), load_ms, check.wall, check.cpu,
      target_ms, check.cpu / target_ms, infer.wall, infer.cpu, findings, findings_inferred, peak_rss_mib());
  return check.cpu <= target_ms && findings == 0 && findings_inferred == 0 ? 0 : 1;
}
// The field notes' failure: the top tier wired into 8 disjoint networks (thousands of findings,
// so message building is measured too).
int bench_split(double target_ms) {
  auto design = wiring::generate_fat_tree(*wiring::fat_tree_preset("field-notes"));
  design.spec.rate = design.wiring.cables.front().rate.value();
  wiring::FatTreeDesign cabled = design;
  cabled.wiring = testing::split_top_tier(design);
  topo::Fabric fabric = topo::parse_fabric_text(wiring::to_ibsim_netfile(cabled), "split");
  for (auto& c : design.wiring.cables) c.rate = wiring::ibsim_rate(*c.rate);
  wiring::node_name_map(design).apply(fabric);
  std::vector<Finding> findings;
  Times check = median_ms(5, [&] { findings = topo_check::check_wiring(fabric, design.wiring); });
  size_t splits =
      std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.kind == FindingKind::Split; });
  std::printf(
      "field-notes split into 8 networks: check %.1f ms wall %.1f ms CPU (target %.0f ms), %zu findings, "
      "%zu split; peak RSS %ld MiB\n",
      check.wall, check.cpu, target_ms, findings.size(), splits, peak_rss_mib());
  return check.cpu <= target_ms && splits == 1 ? 0 : 1;
}
}  // namespace

int main() {
  int rc = bench("field-notes", *wiring::fat_tree_preset("field-notes"), 50);
  wiring::FatTreeSpec big;
  big.tiers = 3;
  big.radix = 64;
  big.hosts = 8192;
  big.hcas_per_host = 8;
  rc |= bench_split(50);
  rc |= bench("64k-HCAs", big, 1000);
  return rc;
}
