// `ibburn topo discover` (live fabric to a snapshot file) and `ibburn topo show` (summary
// of a snapshot, dump, cache file or the live fabric).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "common/duration.h"
#include "common/error.h"
#include "topo/fabric_io.h"
#include "topo/fabric_summary.h"
#include "topo/ibnd_fabric.h"
#include "topo/node_name_map.h"

namespace ibburn::app {
namespace {

struct LiveArgs {
  std::string ca;
  int port = 0;
  int hops = 0;
  std::string timeout = "200ms";
  int retries = 3;

  void add_options(CLI::App& cmd) {
    cmd.add_option("-C,--ca", ca, "HCA to discover from (default: first with an active port)");
    cmd.add_option("-P,--port", port, "HCA port (default: first active)");
    cmd.add_option("--hops", hops, "Hop limit (0 = unlimited)")->check(CLI::NonNegativeNumber);
    cmd.add_option("--timeout", timeout, "Per-MAD timeout, e.g. 200ms")->capture_default_str();
    cmd.add_option("--retries", retries, "Per-MAD retries")->capture_default_str()->check(CLI::NonNegativeNumber);
  }
  topo::Fabric discover() const {
    topo::DiscoverOptions d;
    d.ca = ca;
    d.port = port;
    d.hop_limit = hops;
    d.retries = retries;
    try {
      d.timeout = parse_duration(timeout);
    } catch (const std::invalid_argument& e) {
      throw Error(kExitInput, std::string("--timeout: ") + e.what());
    }
    return topo::discover_live(d);
  }
};

struct DiscoverArgs {
  LiveArgs live;
  std::string output;
};

struct ShowArgs {
  LiveArgs live;
  std::string source;
  std::string node_name_map;
  bool json = false;
  topo::LoadOptions load;
};

void run_discover(const DiscoverArgs& a) {
  topo::Fabric fabric = a.live.discover();
  topo::save_fabric_file(fabric, a.output);
  topo::FabricSummary s = topo::summarize(fabric);
  std::cerr << "ibburn: " << s.switches << " switches, " << s.cas << " HCAs, " << s.links
            << " links written to " << a.output << "\n";
}

void run_show(const ShowArgs& a) {
  topo::Fabric fabric = a.source == "live" ? a.live.discover() : topo::load_fabric_file(a.source, a.load);
  if (!a.node_name_map.empty()) topo::NodeNameMap::load(a.node_name_map).apply(fabric);
  topo::FabricSummary s = topo::summarize(fabric);
  if (a.json)
    std::cout << topo::to_json(s).dump(2) << "\n";
  else
    std::cout << topo::to_text(s);
}

Registrar reg([](CLI::App& root) {
  CLI::App& topo = group(root, "topo", "Fabric topology: discover, show, check against the wiring plan");

  auto discover_args = std::make_shared<DiscoverArgs>();
  CLI::App* discover = topo.add_subcommand(
      "discover", "Discover the live fabric and write a snapshot (.json: JSON, else ibnetdiscover text)");
  discover_args->live.add_options(*discover);
  discover->add_option("-o,--output", discover_args->output, "Snapshot file to write")->required();
  discover->callback([discover_args] { run_discover(*discover_args); });

  auto show_args = std::make_shared<ShowArgs>();
  CLI::App* show = topo.add_subcommand(
      "show", "Summary of a fabric: switches, HCAs, links by rate, ports down, islands");
  show->add_option("source", show_args->source,
                   "Fabric file (JSON snapshot, ibnetdiscover text, libibnetdisc cache) or `live`")
      ->required();
  show_args->live.add_options(*show);
  show->add_option("--node-name-map", show_args->node_name_map, "infiniband-diags node-name-map");
  show->add_flag("--json", show_args->json, "Print the summary as JSON");
  show->add_flag("--allow-partial", show_args->load.allow_partial,
                 "Load a truncated dump (links to nodes it has no record of) with a warning");
  show->callback([show_args] { run_show(*show_args); });
});

}  // namespace
}  // namespace ibburn::app
