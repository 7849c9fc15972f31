// Counters snapshot speed at scale: every linked port of the field-notes fabric (4,088 HCAs,
// 24,568 ports) and of a 64k-HCA fat tree, each port with all 22 counters (PortCountersExtended
// read), written and read back with counters/snapshot_json. nlohmann's parse of the same
// text is the peer (what the reader before simdjson spent on its tree alone). Median of 3 by
// CPU time (the build machines are shared; wall time there mostly measures the neighbours).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "counters/snapshot_json.h"
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

// A sweep of every linked port, as `counters --save` after a burn: data counters in the
// billions, a few errors.
counters::Snapshot snapshot_of(const topo::Fabric& fabric) {
  counters::Snapshot s;
  s.time_ms = 1'764'633'600'000;
  for (size_t id = 0; id < fabric.size(); ++id) {
    const topo::Node& n = fabric.node(static_cast<topo::NodeId>(id));
    for (const topo::Port& p : n.ports) {
      if (!p.linked()) continue;
      counters::PortSample sample;
      sample.node = n.name;
      sample.node_guid = n.guid;
      sample.port_guid = p.guid ? p.guid : n.guid;
      sample.node_type = n.type;
      sample.lid = n.is_switch() ? n.ports[0].lid : p.lid;
      sample.port = p.number;
      sample.peer = PortRef{fabric.node(p.remote.node).name, p.remote.port};
      sample.reachable = true;
      for (size_t i = 0; i < counters::kCounterCount; ++i) {
        const counters::Counter c = counters::counter_at(i);
        const int width = counters::port_counters_bits(c) && c < counters::Counter::PortXmitData
                              ? counters::port_counters_bits(c)
                              : 64;
        sample.counters.set(c, counters::is_error_counter(c) ? (id + i) % 3 : 123'456'789'012 + id * 1000 + i, width);
      }
      s.ports.push_back(std::move(sample));
    }
  }
  return s;
}

void run(const char* what, const wiring::FatTreeSpec& spec) {
  const topo::Fabric fabric = topo::parse_fabric_text(wiring::to_ibsim_netfile(wiring::generate_fat_tree(spec)), what);
  const counters::Snapshot snap = snapshot_of(fabric);
  std::string text;
  const Time write = measure([&] { text = counters::snapshot_json_text(snap); });
  const Time load = measure([&] { counters::parse_snapshot_json(text, what); });
  const Time peer = measure([&] { (void)nlohmann::json::parse(text).size(); });
  std::printf("%s: %zu ports, %.1f MB\n", what, snap.ports.size(), text.size() / 1e6);
  std::printf("  write snapshot     cpu %7.1f ms  wall %7.1f ms\n", write.cpu_ms, write.wall_ms);
  std::printf("  load snapshot      cpu %7.1f ms  wall %7.1f ms\n", load.cpu_ms, load.wall_ms);
  std::printf("  nlohmann parse     cpu %7.1f ms  wall %7.1f ms  (load / nlohmann: %.2f)\n", peer.cpu_ms, peer.wall_ms,
              load.cpu_ms / peer.cpu_ms);
}

}  // namespace

int main() {
  run("field-notes", *wiring::fat_tree_preset("field-notes"));
  wiring::FatTreeSpec spec;
  spec.tiers = 3;
  spec.radix = 64;
  spec.hosts = 8192;
  spec.hcas_per_host = 8;
  run("64k HCAs", spec);
  return 0;
}
