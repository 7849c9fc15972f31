#pragma once
// The fabric model every ibburn capability works on: nodes, their ports, and the links
// between ports. Pure data, no I/O: loaders (live discovery, ibnetdiscover text, cache
// files, JSON snapshots) fill it; checks, planners and reports read it.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "topo/link_rate.h"

namespace ibburn::topo {

enum class NodeType : uint8_t { Unknown = 0, CA = 1, Switch = 2, Router = 3 };
// PortInfo PortState and PortPhysicalState encodings.
enum class PortState : uint8_t { Unknown = 0, Down = 1, Init = 2, Armed = 3, Active = 4 };
enum class PhysState : uint8_t {
  Unknown = 0,
  Sleep = 1,
  Polling = 2,
  Disabled = 3,
  Training = 4,
  LinkUp = 5,
  LinkErrorRecovery = 6,
  PhyTest = 7
};

const char* to_string(NodeType t);   // "CA", "Switch", "Router"
const char* to_string(PortState s);  // "Active", ...
const char* to_string(PhysState s);  // "LinkUp", ...

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

struct PortEnd {
  NodeId node = kNoNode;
  int port = 0;
  bool valid() const { return node != kNoNode; }
  bool operator==(const PortEnd&) const = default;
};

// The small members come first so they pack into 16 bytes: a 64k-HCA fabric holds ~464k
// ports, and 64 bytes a port instead of 80 is 7 MB less memory to fault in on every load.
struct Port {
  int number = 0;
  uint16_t lid = 0;  // for switches the LID lives on port 0; external ports copy it
  uint8_t lmc = 0;
  PortState state = PortState::Unknown;
  PhysState phys = PhysState::Unknown;
  LinkRate active;     // trained width/speed
  LinkRate supported;  // the best this port supports (if known)
  LinkRate enabled;    // the best this port is enabled for (if known)
  // The port reports a physical link but discovery could not reach the other end
  // (hop limit, timeout, or a peer that does not answer).
  bool peer_unreached = false;
  uint64_t guid = 0;
  std::string label;  // ibdiagnet port label such as "1/1/1" (empty when unknown)
  PortEnd remote;     // the linked peer, when known
  bool linked() const { return remote.valid(); }
};

struct Node {
  NodeType type = NodeType::Unknown;
  uint64_t guid = 0;
  uint64_t sysimg_guid = 0;
  uint32_t vendor_id = 0;  // NodeInfo VendorID: a 24-bit IEEE OUI
  uint32_t device_id = 0;
  std::string description;  // NodeDescription, e.g. "host1 mlx5_0" or "MF0;sw:MQM9700/U1"
  std::string name;         // human name: node-name-map entry, else the description
  int num_ports = 0;        // external ports: 1..num_ports
  // A switch whose port 0 is a base one (SwitchInfo EnhancedPort0 clear: no port-0 PMA, no
  // link of its own). ibnetdiscover writes "base port 0" for these, "enhanced port 0" else.
  bool base_port0 = false;
  // The snapshot (Fabric::subnets() index) this node was discovered in; -1: not recorded.
  int subnet = -1;
  std::vector<Port> ports;  // indexed by port number; index 0 is the switch management port
  bool is_switch() const { return type == NodeType::Switch; }
  bool is_ca() const { return type == NodeType::CA; }
  Port* port(int n) { return n >= 0 && n < static_cast<int>(ports.size()) ? &ports[n] : nullptr; }
  const Port* port(int n) const { return n >= 0 && n < static_cast<int>(ports.size()) ? &ports[n] : nullptr; }
};

struct Link {
  PortEnd a, b;  // a < b (by node id, then port) so each link is listed once
};

// One subnet a fabric was discovered as (a snapshot; several when merged): what its local
// port saw of the subnet manager. Zeros where the source does not say (ibnetdiscover text).
struct Subnet {
  std::string source;      // the file, or "live" (-C/-P)
  int plane = 0;           // the design's plane it was found to be; 0: none
  uint64_t prefix = 0;     // PortInfo GidPrefix: the subnet prefix the SM programmed
  uint16_t sm_lid = 0;     // PortInfo MasterSMLID
  uint64_t sm_guid = 0;    // SMInfo GUID of that SM, when it answered
  bool sm_master = false;  // SMInfo SMState is master
  bool sm_probed = false;  // the SM was asked (live discovery); false: the source does not say
  std::string error;       // discovery through this source failed (it holds no node): why
};

class Fabric {
 public:
  // Adds a node with ports 0..num_ports (numbers set). Node GUIDs are expected to be
  // unique; a second node with the same GUID is still added (and reported by checks as a
  // duplicate), but find_guid returns the first.
  NodeId add_node(NodeType type, uint64_t guid, std::string description, int num_ports);

  const std::vector<Node>& nodes() const { return nodes_; }
  Node& node(NodeId id) { return nodes_.at(id); }
  const Node& node(NodeId id) const { return nodes_.at(id); }
  size_t size() const { return nodes_.size(); }
  // Room for `n` nodes, so loaders of large fabrics do not rehash as they go.
  void reserve(size_t n);

  std::optional<NodeId> find_guid(uint64_t guid) const;
  std::optional<NodeId> find_name(const std::string& name) const;  // name, then description
  // All node ids sharing one node GUID (size > 1 means a duplicate GUID).
  std::vector<std::vector<NodeId>> duplicate_guids() const;

  Port& port(PortEnd e) { return nodes_.at(e.node).ports.at(e.port); }
  const Port& port(PortEnd e) const { return nodes_.at(e.node).ports.at(e.port); }

  // Links two ports (both ends). Grows a node's port vector if a port number exceeds it.
  // Throws std::logic_error when either end is already linked to a different port.
  void connect(PortEnd a, PortEnd b);
  void disconnect(PortEnd a);

  std::vector<Link> links() const;
  size_t switch_count() const;
  size_t ca_count() const;

  // Connected components over links; each island is a sorted list of node ids.
  std::vector<std::vector<NodeId>> islands() const;
  // Each node's hops over links from the nearest CA: CAs 0, leaves 1, spines 2; -1 for a node
  // no CA reaches.
  std::vector<int> tiers() const;

  // The subnets it was discovered as (one per snapshot merged; empty when unknown).
  std::vector<Subnet>& subnets() { return subnets_; }
  const std::vector<Subnet>& subnets() const { return subnets_; }
  // The design's plane of the subnet `id` was discovered in; 0 when none was assigned.
  int plane(NodeId id) const;

  // Display name for a port: "name[port]".
  std::string port_name(PortEnd e) const;
  // Sets every node's name from its description (used when no node-name-map is given).
  void reset_names_to_descriptions();
  // Rebuilds the name index after names were changed by hand.
  void reindex_names();

 private:
  std::vector<Node> nodes_;
  std::vector<Subnet> subnets_;
  std::unordered_map<uint64_t, NodeId> by_guid_;
  std::unordered_map<std::string, NodeId> by_name_;
};

}  // namespace ibburn::topo
