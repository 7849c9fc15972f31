// topo check speed: the field-notes fabric (4,088 HCAs, 320 switches) and a 64k-HCA fat tree,
// each loaded from its generated ibnetdiscover text, then checked against its plan with the
// node-name-map and with switch names inferred. Prints times against the targets
// (<= 50 ms and <= 1 s after loading) and the process's peak RSS.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "topo/check.h"
#include "topo/fabric_io.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/name_inference.h"

using namespace ibburn;
using Clock = std::chrono::steady_clock;

namespace {
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

template <typename F>
double median_ms(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    f();
    t.push_back(ms_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

int bench(const char* label, const wiring::FatTreeSpec& spec, double target_ms) {
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
  double check_ms = median_ms(5, [&] { findings = topo::check(named, design.wiring).size(); });
  double infer_ms = median_ms(3, [&] {
    topo::Fabric f = fabric;
    wiring::name_switches_from_plan(f, design.wiring);
  });
  topo::Fabric inferred = fabric;
  wiring::name_switches_from_plan(inferred, design.wiring);
  size_t findings_inferred = topo::check(inferred, design.wiring).size();
  std::printf(
      "%-12s %6zu HCAs %5zu switches %6zu cables | load %7.1f ms | check %6.1f ms (target %4.0f ms, "
      "%.2fx of it) | name inference %6.1f ms | findings %zu/%zu | peak RSS %ld MiB\n",
      label, design.hcas.size(), design.switches.size(), design.wiring.cables.size(), load_ms, check_ms,
      target_ms, check_ms / target_ms, infer_ms, findings, findings_inferred, peak_rss_mib());
  return check_ms <= target_ms && findings == 0 && findings_inferred == 0 ? 0 : 1;
}
}  // namespace

int main() {
  int rc = bench("field-notes", *wiring::fat_tree_preset("field-notes"), 50);
  wiring::FatTreeSpec big;
  big.tiers = 3;
  big.radix = 64;
  big.hosts = 8192;
  big.hcas_per_host = 8;
  rc |= bench("64k-HCAs", big, 1000);
  return rc;
}
