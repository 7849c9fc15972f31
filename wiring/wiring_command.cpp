#include "wiring/wiring_command.h"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/file_io.h"
#include "topo/node_name_map.h"
#include "wiring/from_fabric.h"
#include "wiring/ibsim_netfile.h"
#include "wiring/name_inference.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {

int wiring_gen_command(const FatTreeGenOptions& o, std::ostream& out) {
  const FatTreeSpec& spec = o.spec;
  const std::string& prefix = o.prefix;
  auto t0 = std::chrono::steady_clock::now();
  FatTreeDesign design = generate_fat_tree(spec);
  NetfileOptions net;
  net.generic_switch_descriptions = o.generic_switch_descriptions;
  // One netfile per plane: each plane is its own subnet, its own simulator.
  std::vector<std::pair<std::string, IbsimSizes>> netfiles;
  if (spec.planes > 1) {
    for (int k = 1; k <= spec.planes; ++k) {
      const FatTreeDesign plane = plane_design(design, k);
      const std::string file = prefix + ".plane" + std::to_string(k) + ".net";
      write_file_atomic(file, to_ibsim_netfile(plane, net));
      netfiles.emplace_back(file, ibsim_sizes(plane));
    }
  } else {
    write_file_atomic(prefix + ".net", to_ibsim_netfile(design, net));
    netfiles.emplace_back(prefix + ".net", ibsim_sizes(design));
  }
  write_file_atomic(prefix + ".csv", to_csv(design));
  write_file_atomic(prefix + ".node-name-map",
                    "# switch names written by ibburn wiring gen fat-tree\n" + node_name_map(design).to_text());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  out << describe(design);
  const std::string nets = spec.planes > 1 ? fmt::format("{}.plane1..{}.net", prefix, spec.planes) : prefix + ".net";
  out << fmt::format(
      "wrote {}.csv ({} cables), {} ({} switches, {} HCAs{}), {}.node-name-map ({} "
      "switches) in {:.2f} s\n",
      prefix, design.wiring.cables.size(), nets, design.switches.size(), design.hcas.size(),
      o.generic_switch_descriptions ? ", generic switch descriptions" : "", prefix, design.switches.size(), secs);
  topo::LinkRate sim = ibsim_rate(spec.rate);
  if (sim != spec.rate)
    out << fmt::format("note: the netfile simulates {} (ibsim 0.10 knows speeds up to HDR); the CSV says {}\n",
                       topo::to_string(sim), topo::to_string(spec.rate));
  for (const auto& [file, sizes] : netfiles) {
    std::string args;
    for (const std::string& s : sizes.args()) args += s + " ";
    out << "simulate: IBSIM_SOCKNAME=<unique> ibsim -s " << args << file << "\n";
  }
  if (netfiles.front().second.lids_exhausted)
    out << "note: more ports than unicast LIDs (49151): an SM cannot address this whole fabric\n";
  return kExitOk;
}

int wiring_from_fabric_command(const FromFabricOptions& o, std::ostream& out) {
  topo::Fabric fabric = o.fabric.load();
  Wiring w = wiring_from_fabric(fabric, o.fabric.name());
  write_file_atomic(o.out, "# written by ibburn wiring from-fabric " + o.fabric.name() + "\n" + to_csv(w));
  out << fmt::format("wrote {} ({} cables; fabric: {} switches, {} CAs)\n", o.out, w.cables.size(),
                     fabric.switch_count(), fabric.ca_count());
  return kExitOk;
}

int wiring_name_switches_command(const NameSwitchesOptions& o, std::ostream& out) {
  Wiring plan = load_wiring_csv(o.wiring);
  topo::Fabric fabric = o.fabric.load();
  NameInference inf = infer_switch_names(fabric, plan);
  write_file_atomic(o.out, inf.to_text());
  size_t unsure = std::count_if(inf.named.begin(), inf.named.end(), [](const auto& n) { return n.confidence() < 1.0; });
  out << fmt::format("{}: {} switches named, {} with confidence below 1, {} left unnamed\n", o.out, inf.named.size(),
                     unsure, inf.unnamed.size());
  return inf.unnamed.empty() ? kExitOk : kExitFindings;
}

}  // namespace ibburn::wiring
