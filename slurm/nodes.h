#pragma once
// Slurm's names for ibburn's hosts (pure). ibburn's host names come from the HCAs' node
// descriptions; a site's Slurm node names may differ (FQDN against short name, NodeName
// against NodeHostname, a site prefix). Each host is resolved to exactly one Slurm node, or
// reported as unresolved with why: never guessed, so a drain never lands on another machine.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ibburn::slurm {

// One node of `scontrol show node --oneliner`.
struct SlurmNode {
  std::string name;      // NodeName
  std::string hostname;  // NodeHostName
  std::string addr;      // NodeAddr
  std::string state;     // State, e.g. IDLE+DRAIN
  std::string reason;    // Reason without Slurm's " [user@time]" suffix; empty when none
  bool drained() const { return state.find("DRAIN") != std::string::npos; }
};

// `scontrol show node --oneliner`: one node per line (values with spaces, as OS= and Reason=,
// are read as Slurm prints them: Reason= runs to the end of the line).
std::vector<SlurmNode> parse_scontrol_nodes(const std::string& text);

// `--slurm-node-map`: "HOST NODENAME" per line, '#' comments. Throws InputError(origin, line)
// on a line that is not two names, a host given twice, or, when `hosts` are given (every host
// there is), a host not among them: a misspelt host would leave the one it meant unmapped.
std::map<std::string, std::string> parse_slurm_node_map(const std::string& text, const std::string& origin,
                                                        const std::set<std::string>* hosts = nullptr);

struct NodeResolution {
  std::map<std::string, std::string> node_of_host;  // host -> Slurm NodeName
  std::map<std::string, std::string> unresolved;    // host -> why no node was taken
};

// In this order, the first rule that gives exactly one node wins: the map (its node must
// exist), NodeName, NodeHostName, NodeAddr equal to the host, then NodeName and NodeHostName
// by short name (up to the first '.', so gpu017 is gpu017.site.org's; an IPv4 address is
// never shortened). Several nodes at a rule, or none at any, leave the host unresolved.
NodeResolution resolve_slurm_nodes(const std::vector<std::string>& hosts, const std::vector<SlurmNode>& nodes,
                                   const std::map<std::string, std::string>& node_map);

}  // namespace ibburn::slurm
