// `ibburn wiring gen fat-tree` (design files for a fat tree) and `ibburn wiring from-fabric`
// (a wiring CSV from a golden fabric): wiring/wiring_command.h; `ibburn wiring slurm-topology`
// (Slurm's topology.conf, by Slurm's node names): slurm/topology_command.h. Other files
// add more `wiring` subcommands.
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/fabric_options.h"
#include "common/error.h"
#include "slurm/topology_command.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/wiring_command.h"

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
    if (given("--planes")) preset->planes = spec.planes;
    if (!given("--rate")) a.rate = topo::to_string(preset->rate);
    spec = *preset;
  } else if (spec.hosts == 0) {
    throw InputError("--hosts", 0, "give --hosts N or a --preset");
  }
  auto rate = topo::parse_link_rate(a.rate);
  if (!rate) throw InputError("--rate", 0, "unknown rate '" + a.rate + "' (e.g. 4xNDR, 4xHDR)");
  spec.rate = *rate;
  if (a.packed) spec.rail_optimized = false;

  set_exit_code(wiring::wiring_gen_command({spec, a.generic, a.prefix}, std::cout));
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
  ft.add_option("--planes", g->spec.planes,
                "Planes, one per rail (= HCAs per host): each its own subnet, switches and SM; one netfile per "
                "plane, PREFIX.planeK.net");
  ft.add_flag("--no-rails", g->packed, "Pack each host's HCAs on consecutive leaf ports instead of rails");
  ft.add_flag("--generic-switch-descriptions", g->generic,
              std::string("Switches report '") + wiring::kGenericSwitchDescription +
                  "' in the netfile: names only via the node-name-map");
  ft.add_option("-o,--output", g->prefix, "Output prefix")->required();
  ft.callback([g, &ft] { run_gen(*g, ft); });

  auto f = std::make_shared<wiring::FromFabricOptions>();
  CLI::App& ff = *wiring.add_subcommand("from-fabric", "Wiring CSV from a golden fabric (every link once)");
  add_fabric_options(ff, f->fabric, FabricOptionSet().positional_name("FABRIC"));
  ff.add_option("-o,--output", f->out, "Wiring CSV to write")->required();
  ff.callback([f] { set_exit_code(wiring::wiring_from_fabric_command(*f, std::cout)); });

  auto t = std::make_shared<slurm::SlurmTopologyOptions>();
  CLI::App& st = *wiring.add_subcommand(
      "slurm-topology",
      "Slurm's topology.conf (topology/tree) from the cabling, by Slurm's node names; exit 1 = some host has no "
      "Slurm node");
  st.add_option("--wiring", t->wiring, "Wiring CSV (the plan): the cables, or names for the fabric's switches")
      ->required();
  add_fabric_options(st, t->fabric, FabricOptionSet().default_is("the wiring list's cables"));
  st.add_option("--slurm-node-map", t->node_map, "HOST NODENAME per line, where Slurm's names differ from ibburn's");
  st.add_option("-o,--output", t->out, "topology.conf to write (default: standard output)");
  st.add_flag("--check-slurm", t->check_slurm,
              "exit 3 when Slurm does not answer (default: warn and take the hosts' or the map's names)");
  st.callback([t] { set_exit_code(slurm::slurm_topology_command(*t, std::cout, std::cerr)); });
});

}  // namespace
}  // namespace ibburn::app
