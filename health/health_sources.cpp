#include "health/health_sources.h"

#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "common/guid.h"
#include "topo/node_name_map.h"

namespace ibburn::health {

SourceKind source_kind(const std::string& path, const std::string& text) {
  if (path.ends_with(".db_csv")) return SourceKind::DbCsv;
  if (path.ends_with(".cables")) return SourceKind::Cables;
  if (path.ends_with(".net_dump_ext")) return SourceKind::NetDumpExt;
  // Other JSON (a findings file, say) may share a directory with mlxlink's.
  if (path.ends_with(".json"))
    return text.find("\"result\"") != std::string::npos ? SourceKind::Mlxlink : SourceKind::None;
  // ibswinfo output opens with a rule of '=' around the switch's description.
  if (text.starts_with("=====")) return SourceKind::Ibswinfo;
  return SourceKind::None;
}

void add_source(HealthSources& s, SourceKind kind, const std::string& path, const std::string& text) {
  switch (kind) {
    case SourceKind::DbCsv: {
      topo::DbCsv db = topo::parse_db_csv(text, path);
      s.stray_lines += db.stray_lines;
      for (DiagNode& n : diag_nodes(db)) s.nodes.push_back(std::move(n));
      for (const DiagLink& l : diag_links(db)) s.cables.push_back(l);
      break;
    }
    case SourceKind::Cables: {
      CablesFile c = parse_cables(text, path);
      s.stray_lines += c.stray_lines;
      for (CableModule& m : c.modules) s.cable_modules.push_back(std::move(m));
      break;
    }
    case SourceKind::NetDumpExt: {
      NetDumpExt d = parse_net_dump_ext(text, path);
      s.stray_lines += d.stray_lines;
      for (PortPhy& p : d.ports) s.phy.push_back(std::move(p));
      break;
    }
    case SourceKind::Ibswinfo:
      s.switches.push_back(parse_ibswinfo(text, path));
      s.stray_lines += s.switches.back().stray_lines;
      break;
    case SourceKind::Mlxlink: s.links.push_back(parse_mlxlink_json(text, path)); break;
    case SourceKind::None: return;
  }
  ++s.files;
}

namespace {

std::string guid_text(uint64_t guid) { return Guid{guid}.text(); }

// Node names by GUID, in the order HealthJudgement::names documents.
class Namer {
 public:
  Namer(const HealthSources& s, const topo::NodeNameMap* map) : map_(map) {
    std::unordered_map<std::string, size_t> uses;
    for (const DiagNode& n : s.nodes) ++uses[n.description];
    for (const DiagNode& n : s.nodes) {
      std::string name;
      if (n.description.starts_with("MF0;"))
        name = n.description.substr(4, n.description.find(':') - 4);
      else if (uses[n.description] == 1)
        name = n.description;
      if (!name.empty()) described_.emplace(n.guid, name);
    }
  }
  std::string operator()(uint64_t guid) const {
    if (map_)
      if (const std::string* n = map_->find(guid)) return *n;
    auto it = described_.find(guid);
    return it != described_.end() ? it->second : guid_text(guid);
  }

 private:
  const topo::NodeNameMap* map_;
  std::unordered_map<uint64_t, std::string> described_;
};

}  // namespace

HealthInputs health_inputs(const HealthSources& s, const topo::NodeNameMap* names) {
  const Namer name(s, names);
  HealthInputs in;
  // A switch seen by ibdiagnet and ibswinfo both is judged once, by ibdiagnet's record.
  std::unordered_set<uint64_t> seen;
  for (const DiagNode& n : s.nodes) {
    if (!seen.insert(n.guid).second) continue;
    in.firmware.push_back({name(n.guid), n.device_id, model_of(n.description), n.psid, n.firmware});
    if (n.is_switch && n.temperature_c) in.temperatures.push_back({name(n.guid), *n.temperature_c});
  }
  for (const SwitchInfo& sw : s.switches) {
    in.hardware.push_back({name(sw.guid), sw});
    if (!seen.insert(sw.guid).second) continue;
    // ibswinfo has no device ID: the part number stands for the board.
    in.firmware.push_back({name(sw.guid), sw.part_number, sw.part_number, sw.psid, sw.firmware});
    if (sw.temperature_c) in.temperatures.push_back({name(sw.guid), *sw.temperature_c});
  }
  for (const CableModule& m : s.cable_modules) in.modules.push_back({{name(m.guid), m.port}, m});
  for (const MlxlinkPort& l : s.links) in.modules.push_back({{l.module.port_name, 0}, l.module});
  std::map<std::pair<uint64_t, int>, std::pair<uint64_t, int>> peer;
  for (const DiagLink& c : s.cables) {
    peer[{c.guid_a, c.port_a}] = {c.guid_b, c.port_b};
    peer[{c.guid_b, c.port_b}] = {c.guid_a, c.port_a};
  }
  for (const PortPhy& p : s.phy) {
    PortBer b{{name(p.guid), p.port}, std::nullopt, p.fec, p.raw_ber, p.effective_ber, p.symbol_ber};
    if (auto it = peer.find({p.guid, p.port}); it != peer.end())
      b.peer = PortRef{name(it->second.first), it->second.second};
    in.ber.push_back(std::move(b));
  }
  for (const MlxlinkPort& l : s.links)
    in.ber.push_back({{l.module.port_name, 0}, std::nullopt, "", l.raw_ber, l.effective_ber, std::nullopt});
  return in;
}

std::vector<Finding> check_health(const HealthInputs& in, const HealthJudgement& j) {
  std::vector<Finding> out = check_firmware(in.firmware, j.pins);
  for (Finding& f : check_temperatures(in.temperatures, in.modules, j.limits)) out.push_back(std::move(f));
  for (Finding& f : check_switch_hardware(in.hardware)) out.push_back(std::move(f));
  for (Finding& f : check_ber(in.ber)) out.push_back(std::move(f));
  return out;
}

std::vector<Finding> check_health(const HealthSources& s, const HealthJudgement& j) {
  return check_health(health_inputs(s, j.names), j);
}

}  // namespace ibburn::health
