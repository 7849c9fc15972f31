#include "plan/lft_reader.h"

#include <infiniband/mad.h>

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"

namespace ibburn::plan {

ForwardingTables read_forwarding_tables(const topo::Fabric& fabric, const LftReadOptions& o) {
  int classes[] = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS};
  ibmad_port* port = mad_rpc_open_port(o.ca.empty() ? nullptr : const_cast<char*>(o.ca.c_str()), o.port, classes, 2);
  if (!port)
    throw EnvironmentError("cannot open the local InfiniBand port for SMPs" +
                           (o.ca.empty() ? std::string() : " on " + o.ca));
  ForwardingTables out;
  const int timeout_ms = static_cast<int>(o.timeout.count());
  try {
    for (const auto& node : fabric.nodes()) {
      if (!node.is_switch()) continue;
      uint16_t lid = node.ports.empty() ? 0 : node.ports[0].lid;
      if (lid == 0) continue;
      ib_portid_t id{};
      ib_portid_set(&id, lid, 0, 0);
      uint8_t buf[IB_SMP_DATA_SIZE] = {};
      if (!smp_query_via(buf, &id, IB_ATTR_SWITCH_INFO, 0, timeout_ms, port))
        throw EnvironmentError("switch " + node.name + " (LID " + std::to_string(lid) + ") did not answer SwitchInfo");
      int top = 0;
      mad_decode_field(buf, IB_SW_LINEAR_FDB_TOP_F, &top);
      std::vector<uint8_t> lft(static_cast<size_t>(top) + 1, ForwardingTables::kNoRoute);
      for (int block = 0; block <= top / 64; ++block) {
        if (!smp_query_via(buf, &id, IB_ATTR_LINEARFORWTBL, block, timeout_ms, port))
          throw EnvironmentError("switch " + node.name + " did not answer LFT block " + std::to_string(block));
        for (int i = 0; i < 64 && block * 64 + i <= top; ++i) lft[block * 64 + i] = buf[i];
      }
      out.by_switch_guid.emplace(node.guid, std::move(lft));
    }
  } catch (...) {
    mad_rpc_close_port(port);
    throw;
  }
  mad_rpc_close_port(port);
  return out;
}

std::string lfts_to_json_text(const ForwardingTables& lfts) {
  nlohmann::json sw = nlohmann::json::object();
  for (const auto& [g, table] : lfts.by_switch_guid) sw[Guid{g}.text()] = table;
  return nlohmann::json{{"format", "ibburn-lfts"}, {"version", 1}, {"switches", sw}}.dump() + "\n";
}

ForwardingTables load_lfts_json(const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("not JSON: ") + e.what());
  }
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

}  // namespace ibburn::plan
