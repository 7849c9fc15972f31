#include "slurm/nodes.h"

#include <functional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"

namespace ibburn::slurm {
namespace {

// Up to the first '.', for names only: 10.0.0.17's "10" names no machine.
std::string short_name(const std::string& name) {
  if (name.find_first_not_of("0123456789.") == std::string::npos) return name;
  return name.substr(0, name.find('.'));
}

// The value of `key=` in a oneliner: up to the next space.
std::string field(const std::string& line, const std::string& key) {
  const std::string tag = key + "=";
  for (size_t at = line.find(tag); at != std::string::npos; at = line.find(tag, at + 1)) {
    if (at != 0 && line[at - 1] != ' ') continue;
    const size_t from = at + tag.size();
    return line.substr(from, line.find(' ', from) - from);
  }
  return {};
}

}  // namespace

std::vector<SlurmNode> parse_scontrol_nodes(const std::string& text) {
  std::vector<SlurmNode> nodes;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    SlurmNode n;
    n.name = field(line, "NodeName");
    if (n.name.empty()) continue;
    n.hostname = field(line, "NodeHostName");
    n.addr = field(line, "NodeAddr");
    n.state = field(line, "State");
    if (const size_t at = line.find(" Reason="); at != std::string::npos) {
      n.reason = line.substr(at + 8);
      // Slurm appends who set it and when: " [root@2026-12-02T00:35:49]".
      if (const size_t stamp = n.reason.rfind(" ["); stamp != std::string::npos && n.reason.back() == ']')
        n.reason.resize(stamp);
    }
    nodes.push_back(std::move(n));
  }
  return nodes;
}

std::map<std::string, std::string> parse_slurm_node_map(const std::string& text, const std::string& origin,
                                                        const std::set<std::string>* hosts) {
  std::map<std::string, std::string> map;
  std::istringstream in(text);
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    if (w.size() != 2)
      throw InputError(origin, lineno, "expected `HOST NODENAME` (the host as ibburn names it, then its Slurm node)");
    if (hosts && !hosts->count(w[0])) throw InputError(origin, lineno, "host " + w[0] + " is not in the fabric");
    if (!map.emplace(w[0], w[1]).second) throw InputError(origin, lineno, "host " + w[0] + " is mapped twice");
  }
  return map;
}

NodeResolution resolve_slurm_nodes(const std::vector<std::string>& hosts, const std::vector<SlurmNode>& nodes,
                                   const std::map<std::string, std::string>& node_map) {
  using Key = std::function<std::string(const SlurmNode&)>;
  const std::vector<std::pair<std::string, Key>> rules = {
      {"NodeName", [](const SlurmNode& n) { return n.name; }},
      {"NodeHostName", [](const SlurmNode& n) { return n.hostname; }},
      {"NodeAddr", [](const SlurmNode& n) { return n.addr; }},
  };
  std::set<std::string> names;
  for (const auto& n : nodes) names.insert(n.name);
  NodeResolution out;
  for (const auto& host : hosts) {
    if (auto it = node_map.find(host); it != node_map.end()) {
      if (names.count(it->second))
        out.node_of_host[host] = it->second;
      else
        out.unresolved[host] = "--slurm-node-map names " + it->second + ", which Slurm does not know";
      continue;
    }
    bool done = false;
    for (const bool by_short : {false, true}) {
      for (const auto& [rule, key] : rules) {
        if (by_short && rule == "NodeAddr") continue;  // an address has no short form
        std::vector<std::string> matches;
        for (const auto& n : nodes) {
          const std::string k = key(n);
          if (!k.empty() && (by_short ? short_name(k) == short_name(host) : k == host)) matches.push_back(n.name);
        }
        if (matches.empty()) continue;
        if (matches.size() == 1)
          out.node_of_host[host] = matches.front();
        else
          out.unresolved[host] = fmt::format(
              "{}{} {} is that of {} Slurm nodes ({}): give --slurm-node-map", by_short ? "the short name of " : "",
              rule, by_short ? short_name(host) : host, matches.size(), fmt::join(matches, ", "));
        done = true;
        break;
      }
      if (done) break;
    }
    if (!done)
      out.unresolved[host] =
          "no Slurm node has it as NodeName, NodeHostName or NodeAddr (nor its short name): give --slurm-node-map";
  }
  return out;
}

}  // namespace ibburn::slurm
