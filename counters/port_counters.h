#pragma once
// One port's PerfMgt counters (PortCounters plus the 64-bit PortCountersExtended data and
// packet counters) and a sweep's snapshot of every port. Counter names are exactly the MAD
// field names infiniband-diags prints (perfquery, ibqueryerrors), so threshold files and
// outputs line up with the tools operators know.
#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/finding.h"
#include "topo/fabric.h"

namespace ibburn::counters {

enum class Counter : uint8_t {
  // Error counters checked against thresholds, in ibqueryerrors' order.
  SymbolErrorCounter,
  LinkErrorRecoveryCounter,
  LinkDownedCounter,
  PortRcvErrors,
  PortRcvRemotePhysicalErrors,
  PortRcvSwitchRelayErrors,
  PortXmitDiscards,
  PortXmitConstraintErrors,
  PortRcvConstraintErrors,
  LocalLinkIntegrityErrors,
  ExcessiveBufferOverrunErrors,
  VL15Dropped,
  PortXmitWait,
  // Not thresholded by ibqueryerrors, still recorded.
  QP1Dropped,
  // Data counters: PortXmitData/PortRcvData count 4-octet words.
  PortXmitData,
  PortRcvData,
  PortXmitPkts,
  PortRcvPkts,
  PortUnicastXmitPkts,
  PortUnicastRcvPkts,
  PortMulticastXmitPkts,
  PortMulticastRcvPkts,
};
inline constexpr size_t kCounterCount = 22;
inline constexpr size_t kErrorCounterCount = 13;  // SymbolErrorCounter..PortXmitWait

const char* counter_name(Counter c);
std::optional<Counter> counter_from_name(const std::string& name);
// Width of the counter in the (non-extended) PortCounters attribute; 0 when it exists only
// in PortCountersExtended.
int port_counters_bits(Counter c);
inline bool is_error_counter(Counter c) { return static_cast<size_t>(c) < kErrorCounterCount; }
inline Counter counter_at(size_t i) { return static_cast<Counter>(i); }

// Values of one port. bits[i] is the width of the source the value came from (16, 8, 4,
// 32 for PortCounters, 64 for PortCountersExtended), 0 when the counter was not read.
struct CounterValues {
  std::array<uint64_t, kCounterCount> value{};
  std::array<uint8_t, kCounterCount> bits{};

  bool has(Counter c) const { return bits[static_cast<size_t>(c)] != 0; }
  uint64_t get(Counter c) const { return value[static_cast<size_t>(c)]; }
  void set(Counter c, uint64_t v, int width) {
    value[static_cast<size_t>(c)] = v;
    bits[static_cast<size_t>(c)] = static_cast<uint8_t>(width);
  }
  // Pinned at the largest value its width can hold: no longer counting.
  bool saturated(Counter c) const;
  // Octets transmitted + received, when the data counters were read.
  std::optional<double> data_octets() const;
};

// One port of one sweep.
struct PortSample {
  std::string node;  // display name (node-name-map name, else node description)
  uint64_t node_guid = 0;
  uint64_t port_guid = 0;
  topo::NodeType node_type = topo::NodeType::Unknown;
  uint16_t lid = 0;  // the LID the MADs went to (a switch's LID for its ports)
  int port = 0;
  std::optional<PortRef> peer;                       // the linked port, from the fabric model
  bool reachable = false;                            // PortCounters answered
  std::string error;                                 // why not, when unreachable
  topo::PortState state = topo::PortState::Unknown;  // from PortInfo (watch mode)
  topo::PhysState phys = topo::PhysState::Unknown;
  bool by_directed_route = false;  // its state answered over a directed route, not its LID's
  CounterValues counters;

  PortRef ref() const { return {node, port}; }
};

// On disk: counters/snapshot_json.h.
struct Snapshot {
  int64_t time_ms = 0;  // Unix time of the sweep's start
  std::vector<PortSample> ports;
};

// A sample's identity across snapshots: node GUID, port, and which of the samples with that
// GUID and port it is in snapshot order. Two nodes sharing a GUID (a fault topo check reports,
// or GUIDs a file left 0) stay two ports, not one merged in a map: sweeps of one fabric list
// their ports in the same order.
struct SampleKey {
  uint64_t node_guid = 0;
  int port = 0;
  int occurrence = 0;
  auto operator<=>(const SampleKey&) const = default;
};
// The key of each of `snap.ports`, in order.
std::vector<SampleKey> sample_keys(const Snapshot& snap);

}  // namespace ibburn::counters
