#include "route_check/vl_tables.h"

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "common/json_parse.h"

namespace ibburn::route_check {

// Each switch's tables as "in,out" -> 16 VLs, only the pairs not all zero (most of a switch's
// 37 x 37 pairs are never set); path SLs as [slid, dlid, sl] rows.
std::string vl_tables_to_json_text(const VlTables& vls) {
  nlohmann::json sw = nlohmann::json::object();
  for (const auto& [g, t] : vls.by_switch_guid) {
    nlohmann::json pairs = nlohmann::json::object();
    for (int in = 0; in <= t.ports; ++in)
      for (int out = 0; out <= t.ports; ++out) {
        const auto& row = t.by_pair[static_cast<size_t>(in * (t.ports + 1) + out)];
        bool any = false;
        for (uint8_t v : row) any = any || v != 0;
        if (any) pairs[std::to_string(in) + "," + std::to_string(out)] = row;
      }
    sw[Guid{g}.text()] = {{"ports", t.ports}, {"sl2vl", pairs}};
  }
  nlohmann::json sls = nlohmann::json::array();
  for (const auto& [key, sl] : vls.path_sl) sls.push_back({key >> 16, key & 0xFFFF, sl});
  return nlohmann::json{{"format", "ibburn-vls"},
                        {"version", 1},
                        {"switches", sw},
                        {"path_sls", sls},
                        {"default_sl", vls.default_sl}}
             .dump() +
         "\n";
}

VlTables load_vl_tables_json(const std::string& path) {
  const nlohmann::json j = parse_json(read_file(path), path);
  if (j.value("format", "") != "ibburn-vls") throw InputError(path, 0, "not an ibburn-vls file (format field)");
  VlTables out;
  try {
    out.default_sl = j.at("default_sl").get<uint8_t>();
    for (const auto& [guid, entry] : j.at("switches").items()) {
      const auto g = Guid::parse(guid);
      if (!g) throw std::invalid_argument("not a GUID: '" + guid + "'");
      Sl2VlTable t(entry.at("ports").get<int>());
      if (t.ports < 0 || t.ports > 254) throw std::invalid_argument(guid + ": ports out of range");
      for (const auto& [pair, row] : entry.at("sl2vl").items()) {
        const auto comma = pair.find(',');
        if (comma == std::string::npos) throw std::invalid_argument(guid + ": pair '" + pair + "' is not in,out");
        const int in = std::stoi(pair.substr(0, comma)), o = std::stoi(pair.substr(comma + 1));
        if (in < 0 || o < 0 || in > t.ports || o > t.ports)
          throw std::invalid_argument(guid + ": pair '" + pair + "' outside its ports");
        t.at(in, o) = row.get<std::array<uint8_t, kSls>>();
      }
      out.by_switch_guid.emplace(g->value, std::move(t));
    }
    for (const auto& row : j.at("path_sls")) {
      const auto slid = row.at(0).get<uint16_t>(), dlid = row.at(1).get<uint16_t>();
      out.path_sl[(static_cast<uint32_t>(slid) << 16) | dlid] = row.at(2).get<uint8_t>();
    }
  } catch (const std::exception& e) {
    throw InputError(path, 0, std::string("bad entry: ") + e.what());
  }
  return out;
}

}  // namespace ibburn::route_check
