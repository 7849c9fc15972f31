#include "routing/lft_reader.h"

#include <infiniband/mad.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "common/json_parse.h"
#include "topo/directed_route.h"

namespace ibburn::routing {
namespace {

constexpr size_t kLidsPerBlock = IB_SMP_DATA_SIZE;  // one port byte per LID

topo::MadRequest smp_get(uint16_t lid, uint16_t attr, uint32_t attr_mod) {
  topo::MadRequest r;
  r.mgmt_class = topo::kClassSmiLid;
  r.method = topo::kMethodGet;
  r.attr_id = attr;
  r.attr_mod = attr_mod;
  r.dlid = lid;
  return r;
}

}  // namespace

ForwardingTables read_forwarding_tables(const topo::Fabric& fabric, const topo::MadOptions& mad) {
  struct Switch {
    topo::NodeId id;
    uint16_t lid;
    std::optional<topo::DirectedRoute> route;  // set when its LID route did not answer
    std::vector<uint8_t> lft;
  };
  std::vector<Switch> switches;
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    const topo::Node& node = fabric.node(n);
    const uint16_t lid = node.ports.empty() ? 0 : node.ports[0].lid;
    if (node.is_switch() && lid != 0) switches.push_back({n, lid, std::nullopt, {}});
  }
  topo::MadWindow window(mad, topo::kSmpWindow);
  const auto ask = [&](const Switch& sw, uint16_t attr, uint32_t mod) {
    return sw.route ? topo::directed_smp_get(attr, mod, *sw.route) : smp_get(sw.lid, attr, mod);
  };

  std::vector<topo::MadRequest> reqs;
  for (const Switch& sw : switches) reqs.push_back(ask(sw, IB_ATTR_SWITCH_INFO, 0));
  std::vector<topo::MadResult> results = window.run(reqs);
  // A switch silent by LID is asked again by directed route: its LID route runs through the
  // very tables being read, which a cable down since the SM's last sweep (or a dead SM) breaks.
  std::vector<size_t> silent;
  for (size_t i = 0; i < switches.size(); ++i)
    if (!results[i].ok()) silent.push_back(i);
  if (!silent.empty()) {
    const auto local = topo::local_port(fabric, window);
    std::optional<topo::RoutesAround> routes;
    if (local) routes.emplace(fabric, *local, topo::PortKeySet{});
    reqs.clear();
    std::vector<size_t> asked;
    for (size_t i : silent)
      if (routes && (switches[i].route = routes->to({switches[i].id, 0}))) {
        reqs.push_back(ask(switches[i], IB_ATTR_SWITCH_INFO, 0));
        asked.push_back(i);
      }
    const std::vector<topo::MadResult> again = window.run(reqs);
    for (size_t k = 0; k < asked.size(); ++k) results[asked[k]] = again[k];
  }
  for (size_t i = 0; i < switches.size(); ++i) {
    Switch& sw = switches[i];
    if (!results[i].ok())
      throw EnvironmentError("switch " + fabric.node(sw.id).name + " (LID " + std::to_string(sw.lid) +
                             ") did not answer SwitchInfo, by LID nor by directed route");
    int top = 0;
    mad_decode_field(results[i].data.data(), IB_SW_LINEAR_FDB_TOP_F, &top);
    sw.lft.assign(static_cast<size_t>(top) + 1, ForwardingTables::kNoRoute);
  }

  // Every block of every table in one round, so the window stays full across switches.
  struct Block {
    size_t sw;
    uint32_t block;
  };
  std::vector<Block> blocks;
  reqs.clear();
  for (size_t i = 0; i < switches.size(); ++i)
    for (uint32_t b = 0; b * kLidsPerBlock < switches[i].lft.size(); ++b) {
      blocks.push_back({i, b});
      reqs.push_back(ask(switches[i], IB_ATTR_LINEARFORWTBL, b));
    }
  results = window.run(reqs);
  for (size_t k = 0; k < blocks.size(); ++k) {
    Switch& sw = switches[blocks[k].sw];
    if (!results[k].ok())
      throw EnvironmentError("switch " + fabric.node(sw.id).name + " did not answer LFT block " +
                             std::to_string(blocks[k].block));
    const size_t first = blocks[k].block * kLidsPerBlock;
    const size_t n = std::min(kLidsPerBlock, sw.lft.size() - first);
    std::copy_n(results[k].data.begin(), n, sw.lft.begin() + static_cast<std::ptrdiff_t>(first));
  }

  ForwardingTables out;
  for (Switch& sw : switches) {
    out.by_directed_route += sw.route ? 1 : 0;
    out.by_switch_guid.emplace(fabric.node(sw.id).guid, std::move(sw.lft));
  }
  return out;
}

std::string lfts_to_json_text(const ForwardingTables& lfts) {
  nlohmann::json sw = nlohmann::json::object();
  for (const auto& [g, table] : lfts.by_switch_guid) sw[Guid{g}.text()] = table;
  return nlohmann::json{{"format", "ibburn-lfts"}, {"version", 1}, {"switches", sw}}.dump() + "\n";
}

ForwardingTables load_lfts_json(const std::string& path) {
  const nlohmann::json j = parse_json(read_file(path), path);
  if (j.value("format", "") != "ibburn-lfts") throw InputError(path, 0, "not an ibburn-lfts file (format field)");
  ForwardingTables out;
  try {
    for (const auto& [guid, table] : j.at("switches").items()) {
      auto g = Guid::parse(guid);
      if (!g) throw std::invalid_argument("not a GUID: '" + guid + "'");
      out.by_switch_guid.emplace(g->value, table.get<std::vector<uint8_t>>());
    }
  } catch (const std::exception& e) {
    throw InputError(path, 0, std::string("bad switches entry: ") + e.what());
  }
  return out;
}

}  // namespace ibburn::routing
