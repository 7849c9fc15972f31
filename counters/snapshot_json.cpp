#include "counters/snapshot_json.h"

#include <fmt/format.h>

#include <iterator>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "common/json_document.h"
#include "common/json_writer.h"
#include "topo/text_scan.h"

namespace ibburn::counters {
namespace {

void put_port(std::string& out, const PortSample& p) {
  auto to = std::back_inserter(out);
  out += "{\"node\":";
  append_json_string(out, p.node);
  fmt::format_to(to, ",\"node_guid\":\"{}\",\"port_guid\":\"{}\",\"type\":\"{}\",\"lid\":{},\"port\":{}",
                 Guid{p.node_guid}, Guid{p.port_guid}, topo::to_string(p.node_type), p.lid, p.port);
  out += p.reachable ? ",\"reachable\":true" : ",\"reachable\":false";
  if (p.peer) {
    out += ",\"peer\":{\"node\":";
    append_json_string(out, p.peer->node);
    fmt::format_to(to, ",\"port\":{}}}", p.peer->port);
  }
  if (!p.error.empty()) {
    out += ",\"error\":";
    append_json_string(out, p.error);
  }
  if (p.state != topo::PortState::Unknown) fmt::format_to(to, ",\"state\":\"{}\"", topo::to_string(p.state));
  if (p.phys != topo::PhysState::Unknown) fmt::format_to(to, ",\"phys_state\":\"{}\"", topo::to_string(p.phys));
  out += ",\"counters\":{";
  bool first = true;
  for (size_t i = 0; i < kCounterCount; ++i) {
    if (!p.counters.bits[i]) continue;
    fmt::format_to(to, "{}\"{}\":{}", first ? "" : ",", counter_name(counter_at(i)), p.counters.value[i]);
    first = false;
  }
  // Widths follow from the source: PortCounters widths, 64 bits for the data counters when
  // PortCountersExtended answered.
  out += p.counters.bits[static_cast<size_t>(Counter::PortXmitData)] == 64 ? "},\"extended\":true}"
                                                                           : "},\"extended\":false}";
}

template <typename Enum, int N>
Enum named(const JsonObject& obj, std::string_view key) {
  const auto s = obj.get<std::string_view>(key);
  for (int i = 0; i < N; ++i)
    if (s == topo::to_string(static_cast<Enum>(i))) return static_cast<Enum>(i);
  std::string allowed;  // built only on failure, not for every port read
  for (int i = 0; i < N; ++i) allowed += (i ? ", " : "") + std::string(topo::to_string(static_cast<Enum>(i)));
  obj.fail(key, topo::scan::quote(s) + " is not one of " + allowed);
}

uint64_t guid(const JsonObject& obj, std::string_view key) {
  const auto s = obj.get<std::string_view>(key);
  auto v = s.starts_with("0x") ? Guid::parse(s) : std::nullopt;
  if (!v) obj.fail(key, topo::scan::bad_guid_reason("", s) + " (expected \"0x\" and 1 to 16 hex digits)");
  return v->value;
}

PortSample read_port(const JsonObject& j) {
  PortSample p;
  p.node = j.get<std::string>("node");
  p.node_guid = guid(j, "node_guid");
  p.port_guid = guid(j, "port_guid");
  p.node_type = named<topo::NodeType, 4>(j, "type");
  p.lid = static_cast<uint16_t>(j.get<int64_t>("lid", 0, 0xffff));
  p.port = static_cast<int>(j.get<int64_t>("port", 0, 255));
  p.reachable = j.get<bool>("reachable");
  if (j.has("peer")) {
    const JsonObject peer = j.object("peer");
    p.peer = PortRef{peer.get<std::string>("node"), static_cast<int>(peer.get<int64_t>("port", 0, 255))};
  }
  p.error = j.optional<std::string>("error").value_or("");
  if (j.has("state")) p.state = named<topo::PortState, 5>(j, "state");
  if (j.has("phys_state")) p.phys = named<topo::PhysState, 8>(j, "phys_state");
  const bool extended = j.get<bool>("extended");
  const JsonObject values = j.object("counters");
  const simdjson::dom::object members = values.json().get_object().value_unsafe();
  for (auto [name, value] : members) {
    auto c = counter_from_name(std::string(name));
    if (!c) values.fail(name, "not a counter this ibburn knows (MAD field names, docs/counters.md)");
    const auto v = values.as<uint64_t>(value, name);
    int width = port_counters_bits(*c);
    if (width == 0 || (extended && *c >= Counter::PortXmitData)) width = 64;
    p.counters.set(*c, v, width);
  }
  return p;
}

}  // namespace

std::string snapshot_json_text(const Snapshot& s, std::string_view extra_members) {
  std::string out;
  out.reserve(128 + s.ports.size() * 720);
  fmt::format_to(std::back_inserter(out), "{{\"schema_version\":{},\"time_ms\":{},", kSnapshotSchemaVersion, s.time_ms);
  if (!extra_members.empty()) {
    out += extra_members;
    out += ',';
  }
  // One port per line: diffable, and a syntax error names a useful line.
  out += "\n\"ports\":[";
  for (size_t i = 0; i < s.ports.size(); ++i) {
    out += i ? ",\n" : "\n";
    put_port(out, s.ports[i]);
  }
  out += "\n]}\n";
  return out;
}

Snapshot parse_snapshot_json(std::string_view text, const std::string& origin) {
  const JsonDocument doc(text, origin);
  const JsonObject root = doc.object();
  const int64_t version = root.optional<int64_t>("schema_version").value_or(kOldestSnapshotSchemaVersion);
  if (version < kOldestSnapshotSchemaVersion || version > kSnapshotSchemaVersion)
    root.fail("schema_version", fmt::format("{} is not a counters snapshot version this ibburn reads ({} to {}){}",
                                            version, kOldestSnapshotSchemaVersion, kSnapshotSchemaVersion,
                                            version > kSnapshotSchemaVersion ? "; a newer ibburn wrote it" : ""));
  if (!root.has("ports") && root.has("findings"))
    root.fail("", "holds findings only (`ibburn counters --json`), not a counters snapshot (`--save` writes one)");
  Snapshot s;
  s.time_ms = root.get<int64_t>("time_ms");
  s.ports.reserve(root.array("ports").size());
  root.each_object("ports", [&](const JsonObject& port) { s.ports.push_back(read_port(port)); });
  return s;
}

Snapshot load_snapshot(const std::string& path) { return parse_snapshot_json(read_file(path), path); }

}  // namespace ibburn::counters
