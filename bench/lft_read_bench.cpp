// Reading every switch's linear forwarding table from a live fabric (bench/lfts.sh): loads
// a fabric file with the switches' LIDs, reads the tables RUNS times with
// routing::read_forwarding_tables and prints each run's wall and CPU time and the best, then
// saves the last tables as an ibburn-lfts file (for the comparison with ibroute). Run it
// attached to the fabric (scripts/simfabric run). The options are braced as {ca, port}
// so the same source builds against an earlier reader's option type (the "before" row).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/file_io.h"
#include "routing/lft_reader.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using Clock = std::chrono::steady_clock;

namespace {

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FABRIC_FILE RUNS OUT_LFTS_JSON\n", argv[0]);
    return 2;
  }
  const topo::Fabric fabric = topo::load_fabric_file(argv[1]);
  const int runs = std::max(1, std::atoi(argv[2]));
  routing::ForwardingTables lfts;
  double best_wall = 1e300, best_cpu = 1e300;
  for (int i = 1; i <= runs; ++i) {
    const auto w0 = Clock::now();
    const double c0 = cpu_ms();
    lfts = routing::read_forwarding_tables(fabric, {"", 0});
    const double wall = std::chrono::duration<double, std::milli>(Clock::now() - w0).count();
    const double cpu = cpu_ms() - c0;
    best_wall = std::min(best_wall, wall);
    best_cpu = std::min(best_cpu, cpu);
    std::printf("run %d: %zu tables in %.0f ms wall, %.0f ms CPU\n", i, lfts.by_switch_guid.size(), wall, cpu);
  }
  std::printf("best: %.0f ms wall, %.0f ms CPU\n", best_wall, best_cpu);
  write_file_atomic(argv[3], routing::lfts_to_json_text(lfts));
  return 0;
}
