#include "health/diag_nodes.h"

#include <unordered_map>

#include "common/error.h"

namespace ibburn::health {
namespace {

std::string dotted(uint64_t major, uint64_t minor, uint64_t sub) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(sub);
}

}  // namespace

std::vector<DiagNode> diag_nodes(const topo::DbCsv& db) {
  std::vector<DiagNode> out;
  std::unordered_map<uint64_t, size_t> by_guid;
  const topo::CsvSection* nodes = db.find("NODES");
  if (!nodes) throw InputError(db.origin, 0, "no NODES section");
  {
    topo::SectionReader r(db, *nodes);
    int guid = r.need("NodeGUID"), desc = r.need("NodeDesc"), type = r.need("NodeType");
    for (size_t i = 0; i < nodes->rows.size(); ++i) {
      DiagNode n;
      n.guid = r.number(i, guid);
      n.description = r.text(i, desc);
      n.is_switch = r.number(i, type) == 2;
      if (by_guid.emplace(n.guid, out.size()).second) out.push_back(std::move(n));
    }
  }
  auto node_at = [&](const topo::SectionReader& r, const topo::CsvSection& s, size_t row, int guid_col) -> DiagNode& {
    auto it = by_guid.find(r.number(row, guid_col));
    if (it == by_guid.end()) r.fail(row, s.name + " names a node NODES lacks");
    return out[it->second];
  };
  if (const topo::CsvSection* info = db.find("NODES_INFO")) {
    topo::SectionReader r(db, *info);
    int guid = r.need("NodeGUID"), dev = r.need("HWInfo_DeviceID"), psid = r.need("FWInfo_PSID");
    int major = r.need("FWInfo_Major"), minor = r.need("FWInfo_Minor"), sub = r.need("FWInfo_SubMinor");
    int emajor = r.need("FWInfo_Extended_Major"), eminor = r.need("FWInfo_Extended_Minor"),
        esub = r.need("FWInfo_Extended_SubMinor");
    for (size_t i = 0; i < info->rows.size(); ++i) {
      DiagNode& n = node_at(r, *info, i, guid);
      n.device_id = r.text(i, dev);
      n.psid = r.text(i, psid);
      // Newer firmware leaves the 8-bit fields 0 and writes its version in the extended ones.
      uint64_t em = r.number(i, emajor), en = r.number(i, eminor), es = r.number(i, esub);
      n.firmware =
          em || en || es ? dotted(em, en, es) : dotted(r.number(i, major), r.number(i, minor), r.number(i, sub));
    }
  }
  if (const topo::CsvSection* temps = db.find("TEMP_SENSING")) {
    topo::SectionReader r(db, *temps);
    int guid = r.need("NodeGUID"), current = r.need("CurrentTemperature");
    for (size_t i = 0; i < temps->rows.size(); ++i)
      node_at(r, *temps, i, guid).temperature_c = static_cast<double>(r.number(i, current));
  }
  return out;
}

std::vector<DiagLink> diag_links(const topo::DbCsv& db) {
  std::vector<DiagLink> out;
  const topo::CsvSection* links = db.find("LINKS");
  if (!links) return out;
  topo::SectionReader r(db, *links);
  const int g1 = r.need("NodeGuid1"), p1 = r.need("PortNum1"), g2 = r.need("NodeGuid2"), p2 = r.need("PortNum2");
  for (size_t i = 0; i < r.rows(); ++i)
    out.push_back(
        {r.number(i, g1), r.number(i, g2), static_cast<int>(r.number(i, p1)), static_cast<int>(r.number(i, p2))});
  return out;
}

}  // namespace ibburn::health
