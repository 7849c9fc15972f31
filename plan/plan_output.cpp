#include "plan/plan_output.h"

#include <sstream>
#include <unordered_map>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "localization/burn_localize.h"
#include "topo/fabric_summary.h"

namespace ibburn::plan {
namespace {

// Why a port GUID names no one port: the HCA ports that share it (duplicate_guid), if any.
std::string shared_by(const topo::Fabric& fabric, uint64_t guid) {
  std::string names;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    if (!fabric.node(n).is_switch())
      for (const auto& p : fabric.node(n).ports)
        if (p.number > 0 && p.guid == guid) names += (names.empty() ? "" : ", ") + fabric.port_name({n, p.number});
  return names.find(',') == std::string::npos ? "" : " alone: " + names + " share it (give each HCA its own GUID)";
}

}  // namespace

std::vector<topo::PortEnd> parse_endpoints(const std::string& text, const std::string& origin,
                                           const topo::Fabric& fabric) {
  const std::unordered_map<uint64_t, topo::PortEnd> by_port_guid = topo::hca_ports_by_guid(fabric);
  std::vector<topo::PortEnd> out;
  if (auto first = text.find_first_not_of(" \t\r\n"); first != std::string::npos && text[first] == '{') {
    // A burn's results.jsonl: rank = index in the run header's endpoints.
    std::string lines;
    int rank = 0;
    for (const auto& e : burn::read_run_endpoints(text.substr(first), origin)) {
      if (!e.port_guid)
        throw InputError(origin, 1,
                         "rank " + std::to_string(rank) + " (" + e.host + " " + e.endpoint +
                             ") has no port GUID: give an endpoints file");
      lines += std::to_string(rank++) + " " + Guid{e.port_guid}.text() + "\n";
    }
    return parse_endpoints(lines, origin, fabric);
  }
  std::vector<char> seen;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (words.empty()) continue;
    if (words.size() > 2) throw InputError(origin, lineno, "expected `RANK PORT_GUID` or `PORT_GUID`");
    size_t rank = out.size();
    uint64_t guid = 0;
    try {
      if (words.size() == 2) rank = std::stoul(words[0]);
      auto g = Guid::parse(words.back());
      if (!g) throw std::invalid_argument("not a GUID");
      guid = g->value;
    } catch (const std::exception&) {
      throw InputError(origin, lineno, "bad rank or GUID in '" + line + "'");
    }
    auto it = by_port_guid.find(guid);
    if (it == by_port_guid.end())
      throw InputError(origin, lineno,
                       "port GUID " + words.back() + " is not an HCA port of the fabric" + shared_by(fabric, guid));
    if (!fabric.port(it->second).linked())
      throw InputError(origin, lineno, fabric.port_name(it->second) + " is not cabled");
    if (rank >= out.size()) out.resize(rank + 1), seen.resize(rank + 1, 0);
    if (seen[rank]) throw InputError(origin, lineno, "rank " + std::to_string(rank) + " given twice");
    out[rank] = it->second;
    seen[rank] = 1;
  }
  for (size_t r = 0; r < seen.size(); ++r)
    if (!seen[r]) throw InputError(origin, 0, "rank " + std::to_string(r) + " has no endpoint");
  return out;
}

Endpoints load_endpoints(const std::string& file, const topo::Fabric& fabric) {
  if (file.empty()) return {planner::all_hca_ports(fabric), false};
  return {parse_endpoints(read_file(file), file, fabric), true};
}

std::vector<uint64_t> given_port_guids(const Endpoints& endpoints, const topo::Fabric& fabric) {
  std::vector<uint64_t> out;
  if (!endpoints.given) return out;
  for (const auto& p : endpoints.ports) out.push_back(fabric.port(p).guid);
  return out;
}

burn::Plan to_burn_plan(const planner::PlanResult& result, const std::string& name) {
  burn::Plan p;
  p.name = name;
  for (size_t s = 0; s < result.stages.size(); ++s) {
    burn::Stage st;
    st.name = "stage " + std::to_string(s + 1);
    for (const planner::PlannedFlow& f : result.stages[s]) st.flows.push_back({f.src, f.dst, false, 0});
    p.stages.push_back(std::move(st));
  }
  return p;
}

nlohmann::json coverage_proof(const topo::Fabric& fabric, const routing::CableIndex& cables,
                              const planner::PlanResult& result) {
  nlohmann::json edges = nlohmann::json::array();
  for (routing::EdgeId e = 0; e < cables.size(); ++e) {
    const auto& c = result.coverage[e];
    edges.push_back({{"from", fabric.port_name(cables.edge(e).from)},
                     {"to", fabric.port_name(cables.edge(e).to)},
                     {"capacity_gbps", cables.edge(e).capacity_gbps},
                     {"stage", c.stage >= 0 ? nlohmann::json(c.stage + 1) : nlohmann::json(nullptr)},
                     {"load", c.best_load}});
  }
  return {{"cable_directions", cables.size()}, {"covered", result.covered}, {"stages", result.stages.size()},
          {"lower_bound", result.lower_bound}, {"notes", result.notes},     {"edges", edges}};
}

nlohmann::json simulation_to_json(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                  const std::vector<topo::PortEnd>& endpoints, const SimulationReport& report) {
  nlohmann::json slow = nlohmann::json::array();
  for (const auto& f : report.flows)
    if (f.slow)
      slow.push_back({{"stage", f.stage + 1},
                      {"src", fabric.port_name(endpoints[f.flow.src])},
                      {"dst", fabric.port_name(endpoints[f.flow.dst])},
                      {"gbps", f.gbps},
                      {"expected_gbps", f.expected_gbps}});
  return {{"stage_aggregate_gbps", report.stage_aggregate_gbps},
          {"probe_stages", report.probe_stages},
          {"flows", report.flows.size()},
          {"slow_flows", slow},
          {"suspects", localization::suspects_to_json(fabric, cables, report.suspects)}};
}

}  // namespace ibburn::plan
