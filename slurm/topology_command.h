#pragma once
// `ibburn wiring slurm-topology`: Slurm's topology.conf (slurm/topology.h) from the wiring
// list, or from the fabric's real cables when one is given, with each host resolved to its
// Slurm node as a run's drains are (slurm/nodes.h: `--slurm-node-map`, then Slurm's own
// names, read with `scontrol show node`).
#include <iosfwd>
#include <string>

#include "topo/fabric_source.h"

namespace ibburn::slurm {

struct SlurmTopologyOptions {
  std::string wiring;         // the plan: the cables, or, with a fabric, names for its generic switches
  topo::FabricSource fabric;  // no files: the plan's cables only
  std::string node_map;       // --slurm-node-map
  std::string out;            // topology.conf to write; empty: on `out`
  bool check_slurm = false;   // --check-slurm: Slurm must answer (else its names are taken unchecked)
};

// Exit 0, or 1 when some host has no Slurm node (left out of the file, told on `err`). Throws
// InputError (the wiring list, the fabric, the node map: a host it names is not cabled) before
// asking Slurm. Where scontrol fails, warns on `err` and names the nodes as the map or the
// hosts do; with check_slurm, throws EnvironmentError instead.
int slurm_topology_command(const SlurmTopologyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ibburn::slurm
