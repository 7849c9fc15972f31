#include "run/job_allocation.h"

#include <sstream>

#include "common/error.h"

namespace ibburn::run {

AllocationRequest parse_allocation(const std::string& value, const std::string& file_text) {
  AllocationRequest r;
  if (value == "slurm") {
    r.from_slurm = true;
    return r;
  }
  const bool from_file = value.starts_with("@");
  std::string text = from_file ? file_text : value;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line = line.substr(0, line.find('#'));
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream words(line);
    for (std::string w; words >> w;) r.hosts.push_back(w);
  }
  if (r.hosts.empty())
    throw InputError(from_file ? value.substr(1) : "--allocation", 0,
                     "names no host (give slurm, @FILE or a comma-separated list of hosts)");
  return r;
}

Allocation allocation_from_slurm(const std::vector<std::string>& allocated_nodes,
                                 const std::vector<std::string>& fabric_hosts,
                                 const std::vector<slurm::SlurmNode>& nodes,
                                 const std::map<std::string, std::string>& node_map) {
  const slurm::NodeResolution resolved = slurm::resolve_slurm_nodes(fabric_hosts, nodes, node_map);
  const std::set<std::string> allocated(allocated_nodes.begin(), allocated_nodes.end());
  Allocation a;
  std::set<std::string> matched;
  for (const auto& [host, node] : resolved.node_of_host)
    if (allocated.contains(node)) a.hosts.insert(host), matched.insert(node);
  for (const auto& n : allocated_nodes)
    if (!matched.contains(n)) a.nodes_without_host.push_back(n);
  return a;
}

Allocation allocation_from_list(const std::vector<std::string>& listed, const std::set<std::string>& fabric_hosts,
                                const std::string& origin) {
  Allocation a;
  for (const auto& h : listed) {
    if (!fabric_hosts.contains(h))
      throw InputError(origin, 0,
                       "host " + h + " is not in the fabric (hosts are named by their HCAs' node descriptions)");
    a.hosts.insert(h);
  }
  return a;
}

}  // namespace ibburn::run
