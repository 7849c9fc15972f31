#include "counters/port_counters.h"

#include <cstdio>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"

namespace ibburn::counters {
namespace {

struct CounterInfo {
  const char* name;
  int pc_bits;  // width in PortCounters; 0 = PortCountersExtended only
};

constexpr std::array<CounterInfo, kCounterCount> kInfo = {{
    {"SymbolErrorCounter", 16},
    {"LinkErrorRecoveryCounter", 8},
    {"LinkDownedCounter", 8},
    {"PortRcvErrors", 16},
    {"PortRcvRemotePhysicalErrors", 16},
    {"PortRcvSwitchRelayErrors", 16},
    {"PortXmitDiscards", 16},
    {"PortXmitConstraintErrors", 8},
    {"PortRcvConstraintErrors", 8},
    {"LocalLinkIntegrityErrors", 4},
    {"ExcessiveBufferOverrunErrors", 4},
    {"VL15Dropped", 16},
    {"PortXmitWait", 32},
    {"QP1Dropped", 16},
    {"PortXmitData", 32},
    {"PortRcvData", 32},
    {"PortXmitPkts", 32},
    {"PortRcvPkts", 32},
    {"PortUnicastXmitPkts", 0},
    {"PortUnicastRcvPkts", 0},
    {"PortMulticastXmitPkts", 0},
    {"PortMulticastRcvPkts", 0},
}};

std::string hex(uint64_t v) { return Guid{v}.text(); }

template <typename Enum, int N>
Enum enum_from_string(const std::string& s, Enum fallback) {
  for (int i = 0; i < N; ++i)
    if (s == topo::to_string(static_cast<Enum>(i))) return static_cast<Enum>(i);
  return fallback;
}

}  // namespace

const char* counter_name(Counter c) { return kInfo.at(static_cast<size_t>(c)).name; }

std::optional<Counter> counter_from_name(const std::string& name) {
  for (size_t i = 0; i < kCounterCount; ++i)
    if (name == kInfo[i].name) return counter_at(i);
  return std::nullopt;
}

int port_counters_bits(Counter c) { return kInfo.at(static_cast<size_t>(c)).pc_bits; }

bool CounterValues::saturated(Counter c) const {
  int b = bits[static_cast<size_t>(c)];
  if (b == 0 || b >= 64) return false;  // 64-bit counters do not wrap in a port's lifetime
  return get(c) == (uint64_t{1} << b) - 1;
}

std::optional<double> CounterValues::data_octets() const {
  if (!has(Counter::PortXmitData) || !has(Counter::PortRcvData)) return std::nullopt;
  // Both data counters count 4-octet words (IBA PortCounters/PortCountersExtended).
  return 4.0 * (static_cast<double>(get(Counter::PortXmitData)) + static_cast<double>(get(Counter::PortRcvData)));
}

nlohmann::json to_json(const PortSample& p) {
  nlohmann::json j = {{"node", p.node},
                      {"node_guid", hex(p.node_guid)},
                      {"port_guid", hex(p.port_guid)},
                      {"type", topo::to_string(p.node_type)},
                      {"lid", p.lid},
                      {"port", p.port},
                      {"reachable", p.reachable}};
  if (p.peer) j["peer"] = {{"node", p.peer->node}, {"port", p.peer->port}};
  if (!p.error.empty()) j["error"] = p.error;
  if (p.state != topo::PortState::Unknown) j["state"] = topo::to_string(p.state);
  if (p.phys != topo::PhysState::Unknown) j["phys_state"] = topo::to_string(p.phys);
  nlohmann::json values = nlohmann::json::object();
  for (size_t i = 0; i < kCounterCount; ++i)
    if (p.counters.bits[i]) values[kInfo[i].name] = p.counters.value[i];
  j["counters"] = values;
  // Widths follow from the source: PortCounters widths, 64 bits for the data counters
  // when PortCountersExtended answered.
  j["extended"] = p.counters.bits[static_cast<size_t>(Counter::PortXmitData)] == 64;
  return j;
}

nlohmann::json to_json(const Snapshot& s) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : s.ports) ports.push_back(to_json(p));
  return {{"time_ms", s.time_ms}, {"ports", ports}};
}

Snapshot snapshot_from_json(const nlohmann::json& j, const std::string& origin) {
  Snapshot s;
  try {
    s.time_ms = j.at("time_ms").get<int64_t>();
    for (const auto& jp : j.at("ports")) {
      PortSample p;
      p.node = jp.at("node").get<std::string>();
      p.node_guid = std::stoull(jp.value("node_guid", "0"), nullptr, 0);
      p.port_guid = std::stoull(jp.value("port_guid", "0"), nullptr, 0);
      p.node_type = enum_from_string<topo::NodeType, 4>(jp.value("type", ""), topo::NodeType::Unknown);
      p.lid = jp.value("lid", 0);
      p.port = jp.at("port").get<int>();
      if (jp.contains("peer"))
        p.peer = PortRef{jp["peer"].at("node").get<std::string>(), jp["peer"].at("port").get<int>()};
      p.reachable = jp.value("reachable", false);
      p.error = jp.value("error", "");
      p.state = enum_from_string<topo::PortState, 5>(jp.value("state", ""), topo::PortState::Unknown);
      p.phys = enum_from_string<topo::PhysState, 8>(jp.value("phys_state", ""), topo::PhysState::Unknown);
      const bool extended = jp.value("extended", false);
      const nlohmann::json values = jp.value("counters", nlohmann::json::object());
      for (const auto& [name, v] : values.items()) {
        auto c = counter_from_name(name);
        if (!c)
          throw InputError(origin, 0,
                           "port " + p.node + "[" + std::to_string(p.port) + "]: unknown counter '" + name + "'");
        int width = port_counters_bits(*c);
        if (width == 0 || (extended && *c >= Counter::PortXmitData)) width = 64;
        p.counters.set(*c, v.get<uint64_t>(), width);
      }
      s.ports.push_back(std::move(p));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(origin, 0, std::string("not a counters snapshot: ") + e.what());
  } catch (const std::logic_error& e) {  // stoull
    throw InputError(origin, 0, std::string("bad GUID in counters snapshot: ") + e.what());
  }
  return s;
}

Snapshot load_snapshot(const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, 0, std::string("not JSON: ") + e.what());
  }
  return snapshot_from_json(j, path);
}

}  // namespace ibburn::counters
