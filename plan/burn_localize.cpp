#include "plan/burn_localize.h"

#include <sstream>
#include <unordered_map>

#include "common/error.h"
#include "common/file_io.h"

namespace ibburn::plan {

BurnOutcome load_burn_outcome(const std::string& dir) {
  BurnOutcome out;
  const std::string results = dir + "/results.jsonl", summary = dir + "/summary.json";
  std::istringstream lines(read_file(results));
  std::string first;
  std::getline(lines, first);
  try {
    auto run = nlohmann::json::parse(first);
    if (run.value("type", "") != "run") throw InputError(results, 1, "first line is not the run header");
    for (const auto& e : run.at("endpoints"))
      out.port_guid_by_rank.push_back(
          e.contains("port_guid") ? std::stoull(e["port_guid"].get<std::string>(), nullptr, 16) : 0);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(results, 1, std::string("bad run header: ") + e.what());
  }
  try {
    auto s = nlohmann::json::parse(read_file(summary));
    for (const auto& f : s.at("flows"))
      out.directions.push_back({f.at("from").get<int>(), f.at("to").get<int>(), f.at("verdict").get<std::string>()});
  } catch (const nlohmann::json::exception& e) {
    throw InputError(summary, 0, std::string("bad summary: ") + e.what());
  }
  return out;
}

std::vector<Suspect> localize_burn(const topo::Fabric& fabric, const CableIndex& cables,
                                   const Router& router, const BurnOutcome& outcome,
                                   std::vector<std::string>& notes) {
  std::unordered_map<uint64_t, topo::PortEnd> by_guid;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    for (const auto& p : fabric.node(n).ports)
      if (p.guid && p.number > 0) by_guid.emplace(p.guid, topo::PortEnd{n, p.number});
  auto endpoint = [&](int rank) -> const topo::PortEnd* {
    if (rank < 0 || static_cast<size_t>(rank) >= outcome.port_guid_by_rank.size()) return nullptr;
    auto it = by_guid.find(outcome.port_guid_by_rank[rank]);
    return it == by_guid.end() ? nullptr : &it->second;
  };
  std::vector<ObservedFlow> observed;
  for (const auto& d : outcome.directions) {
    bool slow = d.verdict == "slow" || d.verdict == "failed";
    if (!slow && d.verdict != "pass") continue;
    const topo::PortEnd* a = endpoint(d.from);
    const topo::PortEnd* b = endpoint(d.to);
    if (!a || !b) {
      notes.push_back("rank " + std::to_string(a ? d.to : d.from) + " has no port GUID of this fabric");
      continue;
    }
    ObservedFlow f;
    f.slow = slow;
    try {
      router.route(*a, *b, f.path);
    } catch (const RoutingError& e) {
      notes.push_back(e.what());
      continue;
    }
    observed.push_back(std::move(f));
  }
  return localize(observed, cables.size());
}

nlohmann::json suspects_to_json(const topo::Fabric& fabric, const CableIndex& cables,
                                const std::vector<Suspect>& suspects) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& s : suspects)
    arr.push_back({{"cable", cables.describe(fabric, s.edge)},
                   {"from", fabric.port_name(cables.edge(s.edge).from)},
                   {"to", fabric.port_name(cables.edge(s.edge).to)},
                   {"confidence", s.confidence},
                   {"slow_flows", s.slow_explained},
                   {"healthy_flows", s.healthy_through}});
  return arr;
}

}  // namespace ibburn::plan
