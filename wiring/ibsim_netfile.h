#pragma once
// ibsim netfiles for generated designs: ibnetdiscover text whose `switchguid=`/`caguid=`
// lines fix every node GUID in the simulator, with the per-port `lid 0 4xHDR` comments ibsim
// reads width and speed from. Also the simulator's size options for large fabrics.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "topo/fabric.h"
#include "topo/link_rate.h"
#include "wiring/fat_tree.h"

namespace ibburn::wiring {

// What real Quantum-2 switches often report instead of their host name.
inline constexpr const char* kGenericSwitchDescription = "MF0;sw:MQM9700/U1";

struct NetfileOptions {
  // Every switch reports kGenericSwitchDescription, so switch names come only from the
  // node-name-map (or must be inferred); otherwise each switch reports its name.
  bool generic_switch_descriptions = false;
};

// The rate ibsim 0.10 simulates for a cable planned at `wanted`: the same width, speeds
// above HDR (which it would silently read as SDR) become HDR.
topo::LinkRate ibsim_rate(topo::LinkRate wanted);

// The quoted node id ibsim knows a node by (netfile records, console commands such as
// `Unlink "S-0002c90301010001"[33]`): ibnetdiscover's "S-<guid>" / "H-<guid>".
std::string ibsim_node_id(topo::NodeType type, uint64_t guid);

// HCA records come first: ibsim attaches clients started without SIM_HOST to the first
// node's port, and an HCA is where a site runs its SM and discovery.
std::string to_ibsim_netfile(const FatTreeDesign& design, const NetfileOptions& options = {});

// Sizes ibsim must be started with (`-N -S -P`, and `-L` once LIDs exceed its default
// forwarding table): never below ibsim's own defaults.
struct IbsimSizes {
  size_t nodes = 0;
  size_t switches = 0;
  size_t ports = 0;       // as ibsim counts them: switch ports + port 0, CA ports
  size_t linear_cap = 0;  // linear forwarding table entries (ibsim -L)
  // More nodes than unicast LIDs (0x0001..0xbfff): the SM cannot address every port, so the
  // file is for loading and discovery only, not for routed traffic or PerfMgt.
  bool lids_exhausted = false;
  std::vector<std::string> args() const;  // {"-N", "4408", "-S", "320", ...}
};
IbsimSizes ibsim_sizes(const FatTreeDesign& design);
// Counts the node records of any netfile (lines starting with Switch, Ca, Hca or Rt) the way
// ibsim does, so any fabric file can be simulated at its size.
IbsimSizes ibsim_sizes_for_netfile(const std::string& netfile_text);

}  // namespace ibburn::wiring
