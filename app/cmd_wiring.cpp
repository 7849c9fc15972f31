// `ibburn wiring gen fat-tree` (design files for a fat tree) and `ibburn wiring from-fabric`
// (a wiring CSV from a golden fabric). Other files add more `wiring` subcommands.
#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "app/command.h"
#include "common/error.h"
#include "common/file_io.h"
#include "topo/fabric_io.h"
#include "topo/node_name_map.h"
#include "wiring/fat_tree.h"
#include "wiring/from_fabric.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::app {
namespace {

struct GenArgs {
  std::string preset;
  wiring::FatTreeSpec spec;
  std::string rate = "4xNDR";
  bool packed = false;
  bool generic = false;
  std::string prefix;
};

void run_gen(GenArgs a, const CLI::App& cmd) {
  wiring::FatTreeSpec spec = a.spec;
  if (!a.preset.empty()) {
    auto preset = wiring::fat_tree_preset(a.preset);
    if (!preset) {
      std::string names;
      for (const std::string& n : wiring::fat_tree_preset_names()) names += " " + n;
      throw InputError("--preset", 0, "unknown preset '" + a.preset + "' (known:" + names + ")");
    }
    // Options given next to a preset override it.
    auto given = [&](const char* opt) { return cmd.count(opt) > 0; };
    if (given("--tiers")) preset->tiers = spec.tiers;
    if (given("--radix")) preset->radix = spec.radix;
    if (given("--hosts")) preset->hosts = spec.hosts;
    if (given("--hcas-per-host")) preset->hcas_per_host = spec.hcas_per_host;
    if (given("--pods")) preset->pods = spec.pods;
    if (given("--leaves-per-pod")) preset->leaves_per_pod = spec.leaves_per_pod;
    if (given("--spines-per-pod")) preset->spines_per_pod = spec.spines_per_pod;
    if (given("--cores")) preset->cores = spec.cores;
    if (given("--host-prefix")) preset->host_prefix = spec.host_prefix;
    if (!given("--rate")) a.rate = topo::to_string(preset->rate);
    spec = *preset;
  } else if (spec.hosts == 0) {
    throw InputError("--hosts", 0, "give --hosts N or a --preset");
  }
  auto rate = topo::parse_link_rate(a.rate);
  if (!rate) throw InputError("--rate", 0, "unknown rate '" + a.rate + "' (e.g. 4xNDR, 4xHDR)");
  spec.rate = *rate;
  if (a.packed) spec.rail_optimized = false;

  auto t0 = std::chrono::steady_clock::now();
  wiring::FatTreeDesign design = wiring::generate_fat_tree(spec);
  wiring::NetfileOptions net;
  net.generic_switch_descriptions = a.generic;
  write_file_atomic(a.prefix + ".csv", wiring::to_csv(design));
  write_file_atomic(a.prefix + ".net", wiring::to_ibsim_netfile(design, net));
  write_file_atomic(a.prefix + ".node-name-map",
                    "# switch names written by ibburn wiring gen fat-tree\n" + node_name_map(design).to_text());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::cout << wiring::describe(design);
  std::cout << fmt::format("wrote {}.csv ({} cables), {}.net ({} switches, {} HCAs{}), {}.node-name-map ({} "
                           "switches) in {:.2f} s\n",
                           a.prefix, design.wiring.cables.size(), a.prefix, design.switches.size(),
                           design.hcas.size(), a.generic ? ", generic switch descriptions" : "", a.prefix,
                           design.switches.size(), secs);
  topo::LinkRate sim = wiring::ibsim_rate(spec.rate);
  if (sim != spec.rate)
    std::cout << fmt::format("note: the netfile simulates {} (ibsim 0.10 knows speeds up to HDR); the CSV says {}\n",
                             topo::to_string(sim), topo::to_string(spec.rate));
  wiring::IbsimSizes sizes = wiring::ibsim_sizes(design);
  std::string args;
  for (const std::string& s : sizes.args()) args += s + " ";
  std::cout << "simulate: IBSIM_SOCKNAME=<unique> ibsim -s " << args << a.prefix << ".net\n";
  if (sizes.lids_exhausted)
    std::cout << "note: more ports than unicast LIDs (49151): an SM cannot address this whole fabric\n";
}

struct FromFabricArgs {
  std::string fabric;
  std::string out;
  std::string node_name_map;
};

void run_from_fabric(const FromFabricArgs& a) {
  topo::Fabric fabric = topo::load_fabric_file(a.fabric);
  if (!a.node_name_map.empty()) topo::NodeNameMap::load(a.node_name_map).apply(fabric);
  wiring::Wiring w = wiring::wiring_from_fabric(fabric, a.fabric);
  write_file_atomic(a.out, "# written by ibburn wiring from-fabric " + a.fabric + "\n" + wiring::to_csv(w));
  std::cout << fmt::format("wrote {} ({} cables; fabric: {} switches, {} CAs)\n", a.out, w.cables.size(),
                           fabric.switch_count(), fabric.ca_count());
}

Registrar reg([](CLI::App& root) {
  CLI::App& wiring = group(root, "wiring", "Wiring lists (the plan of every cable): generate, derive, name");

  CLI::App& gen = *wiring.add_subcommand("gen", "Generate a fabric design");
  gen.require_subcommand(1);
  auto g = std::make_shared<GenArgs>();
  CLI::App& ft = *gen.add_subcommand(
      "fat-tree",
      "Fat tree design as PREFIX.csv (wiring), PREFIX.net (ibsim netfile, fixed GUIDs), PREFIX.node-name-map");
  ft.add_option("--preset", g->preset, "Named design: field-notes (511 hosts x 8 HCAs, 8 pods, 320 switches)");
  ft.add_option("--tiers", g->spec.tiers, "2 (leaf-spine) or 3 (pods under a core tier)")->capture_default_str();
  ft.add_option("--radix", g->spec.radix, "Ports per switch")->capture_default_str();
  ft.add_option("--hosts", g->spec.hosts, "Hosts");
  ft.add_option("--hcas-per-host", g->spec.hcas_per_host, "HCAs per host (= rails)")->capture_default_str();
  ft.add_option("--pods", g->spec.pods, "Pods (3 tiers; default: as few as the hosts need)");
  ft.add_option("--leaves-per-pod", g->spec.leaves_per_pod, "Leaves per pod (default: derived)");
  ft.add_option("--spines-per-pod", g->spec.spines_per_pod, "Spines per pod (default: derived)");
  ft.add_option("--cores", g->spec.cores, "Core switches (3 tiers; default: derived)");
  ft.add_option("--rate", g->rate, "Planned rate of every cable")->capture_default_str();
  ft.add_option("--host-prefix", g->spec.host_prefix, "Host names: PREFIX001..")->capture_default_str();
  ft.add_flag("--no-rails", g->packed, "Pack each host's HCAs on consecutive leaf ports instead of rails");
  ft.add_flag("--generic-switch-descriptions", g->generic,
              std::string("Switches report '") + wiring::kGenericSwitchDescription +
                  "' in the netfile: names only via the node-name-map");
  ft.add_option("-o,--output", g->prefix, "Output prefix")->required();
  ft.callback([g, &ft] { run_gen(*g, ft); });

  auto f = std::make_shared<FromFabricArgs>();
  CLI::App& ff = *wiring.add_subcommand("from-fabric", "Wiring CSV from a golden fabric file (every link once)");
  ff.add_option("FABRIC", f->fabric, "Fabric file: JSON snapshot, ibnetdiscover text or cache")->required();
  ff.add_option("-o,--output", f->out, "Wiring CSV to write")->required();
  ff.add_option("--node-name-map", f->node_name_map, "Switch names (0xGUID \"name\" per line)");
  ff.callback([f] { run_from_fabric(*f); });
});

}  // namespace
}  // namespace ibburn::app
