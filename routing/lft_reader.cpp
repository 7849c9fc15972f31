#include "routing/lft_reader.h"

#include <infiniband/mad.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "common/json_parse.h"

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
    const topo::Node* node;
    uint16_t lid;
    std::vector<uint8_t> lft;
  };
  std::vector<Switch> switches;
  for (const auto& node : fabric.nodes()) {
    const uint16_t lid = node.ports.empty() ? 0 : node.ports[0].lid;
    if (node.is_switch() && lid != 0) switches.push_back({&node, lid, {}});
  }
  topo::MadWindow window(mad, topo::kSmpWindow);

  std::vector<topo::MadRequest> reqs;
  for (const Switch& sw : switches) reqs.push_back(smp_get(sw.lid, IB_ATTR_SWITCH_INFO, 0));
  std::vector<topo::MadResult> results = window.run(reqs);
  for (size_t i = 0; i < switches.size(); ++i) {
    Switch& sw = switches[i];
    if (!results[i].ok())
      throw EnvironmentError("switch " + sw.node->name + " (LID " + std::to_string(sw.lid) +
                             ") did not answer SwitchInfo");
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
      reqs.push_back(smp_get(switches[i].lid, IB_ATTR_LINEARFORWTBL, b));
    }
  results = window.run(reqs);
  for (size_t k = 0; k < blocks.size(); ++k) {
    Switch& sw = switches[blocks[k].sw];
    if (!results[k].ok())
      throw EnvironmentError("switch " + sw.node->name + " did not answer LFT block " +
                             std::to_string(blocks[k].block));
    const size_t first = blocks[k].block * kLidsPerBlock;
    const size_t n = std::min(kLidsPerBlock, sw.lft.size() - first);
    std::copy_n(results[k].data.begin(), n, sw.lft.begin() + static_cast<std::ptrdiff_t>(first));
  }

  ForwardingTables out;
  for (Switch& sw : switches) out.by_switch_guid.emplace(sw.node->guid, std::move(sw.lft));
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
