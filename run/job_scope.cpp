#include "run/job_scope.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/finding_details.h"
#include "report/history.h"

namespace ibburn::run {

JobScope::JobScope(const topo::Fabric& fabric, const std::map<std::string, std::string>& host_of_hca,
                   std::set<std::string> job_hosts, std::string source)
    : hosts_(std::move(job_hosts)), source_(std::move(source)) {
  for (const auto& [hca, host] : host_of_hca)
    if (!hosts_.contains(host)) outside_.insert(host);
  for (const topo::Node& n : fabric.nodes()) {
    if (!n.is_ca()) continue;
    const auto it = host_of_hca.find(n.name);
    if (it == host_of_hca.end() || hosts_.contains(it->second)) continue;
    outside_nodes_.insert(n.name);
    for (const topo::Port& p : n.ports)
      if (p.linked() && fabric.node(p.remote.node).is_switch())
        outside_ports_.emplace(fabric.node(p.remote.node).name, p.remote.port);
  }
}

std::optional<burn::JobAllocation> JobScope::record() const {
  if (!partial()) return std::nullopt;
  return burn::JobAllocation{source_, {hosts_.begin(), hosts_.end()}, {outside_.begin(), outside_.end()}};
}

bool JobScope::about_job(const Finding& f) const {
  if (f.ports.empty()) return true;
  return std::any_of(f.ports.begin(), f.ports.end(), [&](const PortRef& p) {
    return !outside_nodes_.contains(p.node) && !outside_ports_.contains({p.node, p.port});
  });
}

std::vector<Finding> JobScope::within(std::vector<Finding> findings) const {
  std::erase_if(findings, [&](const Finding& f) { return !about_job(f); });
  return findings;
}

std::set<routing::EdgeId> JobScope::untested_edges(const routing::RouteModel& m,
                                                   const std::vector<double>& expected_total) const {
  std::set<routing::EdgeId> out;
  if (!partial()) return out;
  const auto loaded = [&](routing::EdgeId e) { return e < expected_total.size() && expected_total[e] > 0; };
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e)
    if (!loaded(e) && !loaded(m.cables->reverse(e))) out.insert(e);
  return out;
}

std::optional<Finding> JobScope::untested(const routing::RouteModel& m,
                                          const std::vector<double>& expected_total) const {
  if (!partial()) return std::nullopt;
  const auto edges = untested_edges(m, expected_total);
  std::set<std::string> cables;
  std::map<std::string, bool> switch_loaded;  // switch name -> one of its cables was loaded
  for (routing::EdgeId e = 0; e < m.cables->size(); ++e) {
    const routing::Edge& edge = m.cables->edge(e);
    const bool untested = edges.contains(e);
    for (const topo::PortEnd end : {edge.from, edge.to})
      if (m.fabric.node(end.node).is_switch()) switch_loaded[m.fabric.node(end.node).name] |= !untested;
    if (untested)
      cables.insert(report::cable_name({m.fabric.node(edge.from.node).name, edge.from.port},
                                       {m.fabric.node(edge.to.node).name, edge.to.port}));
  }
  std::vector<std::string> switches;
  for (const auto& [name, loaded] : switch_loaded)
    if (!loaded) switches.push_back(name);
  Finding f;
  f.kind = FindingKind::Untested;
  f.severity = Severity::Info;
  f.message = fmt::format(
      "{} cable(s) and {} switch(es) untested: the job held {} of the fabric's {} hosts, and no stage between "
      "them loaded these{}",
      cables.size(), switches.size(), hosts_.size(), hosts_.size() + outside_.size(),
      cables.empty() ? "" : fmt::format(" (first: {})", *cables.begin()));
  f.details = UntestedDetails{std::vector<std::string>(cables.begin(), cables.end()), switches, hosts_.size(),
                              outside_.size(), source_};
  return f;
}

std::set<std::string> hosts_of_ports(const topo::Fabric& fabric, const std::vector<topo::PortEnd>& ports,
                                     const std::map<std::string, std::string>& host_of_hca) {
  std::set<std::string> out;
  for (const auto& p : ports)
    if (const auto it = host_of_hca.find(fabric.node(p.node).name); it != host_of_hca.end()) out.insert(it->second);
  return out;
}

}  // namespace ibburn::run
