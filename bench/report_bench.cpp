// The page of a run on a big fabric (docs/benchmarks.md, "The report page"): builds the
// fat tree of `--hosts N` hosts x 8 HCAs (radix 64, three tiers), a burn over every HCA with
// 60 per-second samples a direction, a few findings (errors under load on an HCA cable, a
// degraded uplink, a suspect), drain.txt and cables.csv rows for them, and writes the page to
// OUT. Prints the fabric's size, the time to build the page and its size; bench/report.sh
// then times it in Chromium.
//   report_bench --hosts 4096 OUT.html
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/file_io.h"
#include "report/html_report.h"
#include "tests/topo_check/fabric_builder.h"
#include "wiring/fat_tree.h"

using namespace ibburn;

namespace {
Finding cable_finding(FindingKind kind, const wiring::Cable& c) {
  return {kind,
          Severity::Error,
          std::string(to_string(kind)) + " on " + c.a.node + "[" + std::to_string(c.a.port) + "]",
          {{c.a.node, c.a.port}, {c.b.node, c.b.port}},
          {}};
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[1]) != "--hosts") {
    std::fprintf(stderr, "usage: report_bench --hosts N OUT.html\n");
    return 2;
  }
  wiring::FatTreeSpec spec;
  spec.tiers = 3;
  spec.radix = 64;
  spec.hosts = std::atoi(argv[2]);
  spec.hcas_per_host = 8;
  if (spec.hosts == 511) spec = *wiring::fat_tree_preset("field-notes");
  const auto design = wiring::generate_fat_tree(spec);
  const auto built = testing::build_fabric(design);

  report::RunData run;
  run.burn.emplace();
  run.burn->complete = true;
  run.burn->pass = false;
  const auto& cables = design.wiring.cables;
  const auto& hca_cable = cables[5];
  const auto& uplink = cables[design.hcas.size() + 7];
  const auto& core_link = cables.back();
  run.burn->findings = std::vector<Finding>{cable_finding(FindingKind::ErrorsUnderLoad, hca_cable),
                                            cable_finding(FindingKind::Degraded, uplink),
                                            cable_finding(FindingKind::SuspectCable, core_link)};
  burn::StageResult stage;
  stage.index = 1;
  stage.name = "pairs";
  for (size_t i = 0; i < design.hcas.size(); ++i) {
    burn::EndpointRecord e;
    e.rank = static_cast<int>(i);
    e.host = design.hcas[i].host;
    e.endpoint = "mlx5_" + std::to_string(design.hcas[i].hca) + ":1";
    e.verdict = burn::Verdict::Pass;
    e.min_tx_gbps = e.min_rx_gbps = 390.0;
    run.burn->endpoints.push_back(e);
    burn::EndpointInfo info;
    info.host = *e.host;
    info.endpoint = *e.endpoint;
    info.rate_gbps = 400;
    run.endpoints.push_back(info);
    burn::FlowResult f;
    burn::DirectionResult d;
    d.from = static_cast<int>(i), d.to = static_cast<int>(i ^ 1);
    for (int t = 0; t < 60; ++t) d.samples_gbps.push_back(385 + (i * 7 + t * 3) % 10 - (i == 9 && t > 30 ? 200 : 0));
    f.directions = {d};
    stage.flows.push_back(f);
  }
  run.stages = {stage};
  run.drain = report::DrainList{{{design.hcas[2].host, "errors_under_load: " + hca_cable.a.node}}, {}};
  run.cables = std::vector<report::CableRow>{{hca_cable.a.node, std::to_string(hca_cable.a.port), hca_cable.b.node,
                                              std::to_string(hca_cable.b.port), "C-0006", "reseat", "errors_under_load",
                                              "Mellanox MCP4Y10-N002 SN MT2245VS01234",
                                              "Mellanox MCP4Y10-N002 SN MT2245VS01234"}};

  const auto t0 = std::chrono::steady_clock::now();
  const std::string page = report::html_report(run, &built.fabric, "bench: " + std::to_string(spec.hosts) + " hosts");
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  write_file_atomic(argv[3], page);
  std::printf("%zu HCAs, %zu switches, %zu cables: page built in %.0f ms, %.1f MB\n", design.hcas.size(),
              design.switches.size(), cables.size(), ms, static_cast<double>(page.size()) / 1e6);
  return 0;
}
