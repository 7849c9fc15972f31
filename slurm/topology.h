#pragma once
// Slurm's topology.conf for the topology/tree plugin from the cabling (pure): one line per
// switch, `SwitchName=leaf01 Nodes=host[001-032]` for a leaf, `SwitchName=spine01
// Switches=leaf[01-16]` above, so that the scheduler places a job under as few switches as
// the real cables allow. Tiers come from the cabling (wiring/wiring_index.h: counted up from
// the HCAs), hosts from the HCAs' names ("host001 mlx5_0" is host001), Slurm's node names
// from the caller (slurm/nodes.h).
//
// Slurm's tree holds each node under one leaf (slurmctld warns "Multiple leaf switches contain
// nodes" otherwise), while a rail-optimised host is cabled to several: each host is listed
// under one leaf, the one most of its HCA ports are cabled to, on a tie the one of its first
// HCA port (by HCA name, then port): rail 0's. A leaf left with no node, and a switch above
// only such switches, have nothing to list and are left out (docs/slurm.md, "Topology").
#include <map>
#include <set>
#include <string>
#include <vector>

#include "wiring/wiring.h"

namespace ibburn::slurm {

struct SlurmSwitch {
  std::string name;
  int tier = 1;                       // 1 = leaf
  std::vector<std::string> nodes;     // a leaf's Slurm nodes, sorted
  std::vector<std::string> switches;  // the switches one tier down cabled to it, sorted
};

struct SlurmTopology {
  std::vector<SlurmSwitch> switches;  // leaves first, then each tier above; by name within a tier
  std::vector<std::string> left_out;  // switches with nothing to list, sorted
};

class SlurmTree {
 public:
  // `cas`, when given, are the nodes known to be HCAs (a fabric's CAs); otherwise the plan's
  // structure tells (wiring/wiring_index.h). Throws InputError naming the cabling's file and
  // the line of a cable of a switch whose name Slurm cannot read (whitespace, `,=[]#`).
  explicit SlurmTree(const wiring::Wiring& cabling, const std::set<std::string>* cas = nullptr);

  // The hosts cabled to the fabric, sorted: what to resolve to Slurm's nodes.
  const std::vector<std::string>& hosts() const { return hosts_; }
  // Each host named by `node_of_host`; a host it lacks is left out (it has no Slurm node).
  SlurmTopology topology(const std::map<std::string, std::string>& node_of_host) const;

 private:
  struct Switch {
    std::string name;
    int tier = 1;
    std::set<size_t> below;  // switches one tier down (indices in switches_)
  };
  std::vector<Switch> switches_;                // by tier, then name
  std::map<std::string, size_t> leaf_of_host_;  // host -> its leaf (index in switches_)
  std::vector<std::string> hosts_;
};

// topology.conf's lines, one per switch, node and switch lists as Slurm hostlists
// (slurm/hostlist.h).
std::string to_topology_conf(const SlurmTopology& topology);

}  // namespace ibburn::slurm
