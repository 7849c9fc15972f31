#include "app/fabric_options.h"

#include "app/command.h"

namespace ibburn::app {

void add_fabric_options(CLI::App& cmd, topo::FabricSource& source, const FabricOptionSet& set) {
  const std::string what =
      "fabric file (JSON snapshot, ibnetdiscover text, libibnetdisc cache) or `live`; repeat it to merge "
      "snapshots taken in different islands. Default: " +
      set.without;
  if (set.files) {
    CLI::Option* fabric = cmd.add_option("--fabric", source.files, what);
    if (!set.positional.empty()) cmd.add_option(set.positional, source.files, what)->excludes(fabric);
    cmd.add_option("--node-name-map", source.node_name_map,
                   "infiniband-diags node-name-map (0xGUID \"name\" per line)");
    cmd.add_flag("--allow-partial", source.load_options.allow_partial,
                 "load a dump that links to nodes it has no record of (cut short), with a warning naming them");
  }
  cmd.add_option("-C,--ca", source.live.mad.ca, "live discovery: HCA (default: first with an active port)");
  cmd.add_option("-P,--port", source.live.mad.port, "live discovery: HCA port (default: first active)");
  if (!set.discovery_knobs) return;
  cmd.add_option("--hops", source.live.hop_limit, "live discovery: hop limit (0 = unlimited)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option_function<std::string>(
         "--timeout", [&source](const std::string& t) { source.live.mad.timeout = duration_option(t, "--timeout"); },
         "per-MAD timeout (discovery, forwarding tables, counters), e.g. 200ms")
      ->default_str("200ms");
  cmd.add_option("--retries", source.live.mad.retries, "per-MAD retries (discovery, forwarding tables, counters)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
}

}  // namespace ibburn::app
