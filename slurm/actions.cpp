#include "slurm/actions.h"

namespace ibburn::slurm {
namespace {

bool ibburns(const std::string& reason) { return reason.rfind(kSlurmReasonPrefix, 0) == 0; }

}  // namespace

const char* to_string(SlurmActionKind k) {
  switch (k) {
    case SlurmActionKind::Drain: return "drain";
    case SlurmActionKind::Resume: return "resume";
    case SlurmActionKind::Kept: return "kept";
    case SlurmActionKind::Unresolved: return "unresolved";
  }
  return "?";
}

std::string slurm_reason(const Drain& host) {
  std::string reason = kSlurmReasonPrefix + host.reason;
  for (char& c : reason)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  if (reason.size() > 200) reason = reason.substr(0, 197) + "...";
  return reason;
}

std::vector<SlurmAction> plan_slurm_actions(const SlurmOptions& options, const std::vector<Drain>& drain,
                                            const std::vector<std::string>& passed, const std::vector<SlurmNode>& nodes,
                                            const std::map<std::string, std::string>& node_map) {
  std::map<std::string, const SlurmNode*> by_name;
  for (const auto& n : nodes) by_name[n.name] = &n;
  std::vector<SlurmAction> out;
  const auto act = [&](const std::vector<std::string>& hosts, const auto& decide) {
    const NodeResolution r = resolve_slurm_nodes(hosts, nodes, node_map);
    for (const auto& h : hosts) {
      if (auto u = r.unresolved.find(h); u != r.unresolved.end()) {
        out.push_back({SlurmActionKind::Unresolved, h, "", u->second});
        continue;
      }
      const SlurmNode& node = *by_name.at(r.node_of_host.at(h));
      decide(h, node);
    }
  };
  if (options.drain) {
    std::map<std::string, std::string> reason_of;
    std::vector<std::string> hosts;
    for (const auto& d : drain) {
      hosts.push_back(d.host);
      reason_of[d.host] = slurm_reason(d);
    }
    act(hosts, [&](const std::string& h, const SlurmNode& n) {
      if (n.drained() && !ibburns(n.reason))
        out.push_back({SlurmActionKind::Kept, h, n.name, n.reason});
      else
        out.push_back({SlurmActionKind::Drain, h, n.name, reason_of.at(h)});
    });
  }
  if (options.resume)
    act(passed, [&](const std::string& h, const SlurmNode& n) {
      if (!n.drained()) return;
      out.push_back({ibburns(n.reason) ? SlurmActionKind::Resume : SlurmActionKind::Kept, h, n.name, n.reason});
    });
  return out;
}

}  // namespace ibburn::slurm
