// `ibburn topo check` (the discovered fabric against the wiring plan) and
// `ibburn wiring name-switches` (a node-name-map inferred from the plan).
#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "app/command.h"
#include "common/error.h"
#include "common/file_io.h"
#include "common/finding.h"
#include "check/check.h"
#include "topo/fabric_io.h"
#include "topo/fabric_merge.h"
#include "topo/ibnd_fabric.h"
#include "topo/node_name_map.h"
#include "wiring/name_inference.h"
#include "wiring/wiring.h"

namespace ibburn::app {
namespace {

struct Source {
  std::vector<std::string> fabrics;  // snapshots, one per island; none = live discovery
  std::string ca;
  int port = 0;
  std::string node_name_map;
  topo::LoadOptions load_options;
  void add_options(CLI::App& cmd) {
    cmd.add_option("--fabric", fabrics,
                   "Fabric file (JSON snapshot, ibnetdiscover text or cache); repeat it for "
                   "snapshots taken in different islands. Default: discover live");
    cmd.add_option("-C,--ca", ca, "Live discovery: HCA to use")->excludes("--fabric");
    cmd.add_option("-P,--port", port, "Live discovery: HCA port")->excludes("--fabric");
    cmd.add_flag("--allow-partial", load_options.allow_partial,
                 "Load a truncated dump (links to nodes it has no record of) with a warning");
  }
  topo::Fabric load() const {
    if (fabrics.empty()) {
      topo::DiscoverOptions d;
      d.ca = ca;
      d.port = port;
      return topo::discover_live(d);
    }
    std::vector<topo::Fabric> snapshots;
    for (const auto& f : fabrics) snapshots.push_back(topo::load_fabric_file(f, load_options));
    return topo::merge_fabrics(std::move(snapshots));
  }
};

// One line on stderr about inferred names, so the site knows names are guesses.
void tell_inferred(const wiring::NameInference& inf) {
  if (inf.named.empty() && inf.unnamed.empty()) return;
  auto weakest = std::min_element(inf.named.begin(), inf.named.end(), [](const auto& a, const auto& b) {
    return a.confidence() < b.confidence();
  });
  std::cerr << fmt::format("ibburn: {} switch name{} inferred from the plan", inf.named.size(),
                           inf.named.size() == 1 ? "" : "s");
  if (weakest != inf.named.end())
    std::cerr << fmt::format(" (lowest confidence {:.2f}: {})", weakest->confidence(), weakest->name);
  if (!inf.unnamed.empty()) std::cerr << fmt::format(", {} left unnamed", inf.unnamed.size());
  std::cerr << "\n";
}

struct CheckArgs {
  Source source;
  std::string wiring;
  std::string json;
  bool no_infer = false;
  size_t max_details = 20;
};

void run_check(const CheckArgs& a) {
  wiring::Wiring plan = wiring::load_wiring_csv(a.wiring);
  topo::Fabric fabric = a.source.load();
  if (!a.source.node_name_map.empty()) topo::NodeNameMap::load(a.source.node_name_map).apply(fabric);
  if (!a.no_infer) tell_inferred(wiring::name_switches_from_plan(fabric, plan));
  check::CheckOptions options;
  options.vantage_points = std::max<int>(1, static_cast<int>(a.source.fabrics.size()));
  std::vector<Finding> findings = check::check_wiring(fabric, plan, options);
  print_summary(std::cout, "topo check", findings, a.max_details);
  if (!a.json.empty()) write_file_atomic(a.json, findings_to_json(findings).dump(2) + "\n");
  set_exit_code(exit_code_for(findings));
}

struct NameArgs {
  Source source;
  std::string wiring;
  std::string out;
};

void run_name_switches(const NameArgs& a) {
  wiring::Wiring plan = wiring::load_wiring_csv(a.wiring);
  topo::Fabric fabric = a.source.load();
  wiring::NameInference inf = wiring::infer_switch_names(fabric, plan);
  write_file_atomic(a.out, inf.to_text());
  size_t unsure = std::count_if(inf.named.begin(), inf.named.end(),
                                [](const auto& n) { return n.confidence() < 1.0; });
  std::cout << fmt::format("{}: {} switches named, {} with confidence below 1, {} left unnamed\n", a.out,
                           inf.named.size(), unsure, inf.unnamed.size());
  set_exit_code(inf.unnamed.empty() ? kExitOk : kExitFindings);
}

Registrar reg([](CLI::App& root) {
  CLI::App& topo = group(root, "topo", "Fabric topology: discover, show, check against the wiring plan");
  auto c = std::make_shared<CheckArgs>();
  CLI::App& check = *topo.add_subcommand(
      "check", "Compare the fabric with the wiring plan; exit 0 = matches, 1 = findings, 2 = bad input");
  check.add_option("--wiring", c->wiring, "Wiring CSV (the plan)")->required();
  c->source.add_options(check);
  check.add_option("--node-name-map", c->source.node_name_map, "Switch names (0xGUID \"name\" per line)");
  check.add_flag("--no-infer", c->no_infer,
                 "Do not infer names of switches whose names are not in the plan");
  check.add_option("--json", c->json, "Write {\"findings\": [...]} to this file");
  check.add_option("--max-details", c->max_details, "Details shown per kind (0 = all)")->capture_default_str();
  check.callback([c] { run_check(*c); });

  CLI::App& wiring = group(root, "wiring", "Wiring lists (the plan of every cable): generate, derive, name");
  auto n = std::make_shared<NameArgs>();
  CLI::App& name = *wiring.add_subcommand(
      "name-switches", "Infer switch names from the plan (for switches with generic descriptions)");
  name.add_option("--wiring", n->wiring, "Wiring CSV (the plan)")->required();
  n->source.add_options(name);
  name.add_option("-o,--output", n->out, "node-name-map to write (confidence as a trailing comment)")
      ->required();
  name.callback([n] { run_name_switches(*n); });
});

}  // namespace
}  // namespace ibburn::app
