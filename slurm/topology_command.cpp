#include "slurm/topology_command.h"

#include <ostream>
#include <set>

#include <fmt/format.h>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "slurm/nodes.h"
#include "slurm/scontrol.h"
#include "slurm/topology.h"
#include "wiring/from_fabric.h"
#include "wiring/name_inference.h"

namespace ibburn::slurm {
namespace {

// Slurm's names for the hosts, checked against the controller. At acceptance topology.conf is
// written before slurmctld starts: without an answer (and without --check-slurm) the names are
// the map's or the hosts' own, and the file says it was not checked.
NodeResolution slurm_nodes(const SlurmTopologyOptions& o, const std::vector<std::string>& hosts,
                           const std::map<std::string, std::string>& node_map, std::string& unchecked,
                           std::ostream& err) {
  try {
    return resolve_slurm_nodes(hosts, read_slurm_nodes("slurm-topology"), node_map);
  } catch (const EnvironmentError& e) {
    if (o.check_slurm) throw;
    unchecked = e.what();
    err << fmt::format(
        "ibburn: slurm-topology: not checked against Slurm ({}): nodes are named {}; run it again with "
        "--check-slurm once slurmctld is up\n",
        e.what(), node_map.empty() ? "as the hosts" : "by --slurm-node-map, else as the hosts");
  }
  NodeResolution as_named;
  for (const auto& host : hosts) {
    auto it = node_map.find(host);
    as_named.node_of_host[host] = it == node_map.end() ? host : it->second;
  }
  return as_named;
}

}  // namespace

int slurm_topology_command(const SlurmTopologyOptions& o, std::ostream& out, std::ostream& err) {
  const wiring::Wiring plan = wiring::load_wiring_csv(o.wiring);
  wiring::Wiring cabling = plan;
  std::set<std::string> cas;
  if (!o.fabric.files.empty()) {
    topo::Fabric fabric = o.fabric.load();
    wiring::name_switches_from_plan(fabric, plan);
    cabling = wiring::wiring_from_fabric(fabric, o.fabric.name());
    for (const topo::Node& n : fabric.nodes())
      if (n.is_ca()) cas.insert(wiring::name_of(n));
  }
  const SlurmTree tree(cabling, o.fabric.files.empty() ? nullptr : &cas);
  const std::set<std::string> hosts(tree.hosts().begin(), tree.hosts().end());
  const auto node_map = o.node_map.empty() ? std::map<std::string, std::string>{}
                                           : parse_slurm_node_map(read_file(o.node_map), o.node_map, &hosts);

  std::string unchecked;
  const NodeResolution nodes = slurm_nodes(o, tree.hosts(), node_map, unchecked, err);
  for (const auto& [host, why] : nodes.unresolved)
    err << fmt::format("ibburn: host {} has no Slurm node, left out of topology.conf: {}\n", host, why);
  const SlurmTopology topology = tree.topology(nodes.node_of_host);
  const std::string text =
      fmt::format("# Slurm topology/tree, written by ibburn wiring slurm-topology from {}\n{}{}",
                  o.fabric.files.empty() ? o.wiring : o.fabric.name(),
                  unchecked.empty() ? "" : "# node names not checked against Slurm (" + unchecked + ")\n",
                  to_topology_conf(topology));
  if (o.out.empty()) {
    out << text;
  } else {
    write_file_atomic(o.out, text);
    out << fmt::format("wrote {}: {} switches, {} of {} hosts as Slurm nodes\n", o.out, topology.switches.size(),
                       nodes.node_of_host.size(), tree.hosts().size());
  }
  return nodes.unresolved.empty() ? kExitOk : kExitFindings;
}

}  // namespace ibburn::slurm
