#include "counters/port_counters.h"

#include <map>

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

std::vector<SampleKey> sample_keys(const Snapshot& snap) {
  std::map<std::pair<uint64_t, int>, int> seen;
  std::vector<SampleKey> keys;
  keys.reserve(snap.ports.size());
  for (const auto& p : snap.ports) keys.push_back({p.node_guid, p.port, seen[{p.node_guid, p.port}]++});
  return keys;
}

}  // namespace ibburn::counters
