#pragma once
// What `ibburn topo show` prints: counts of nodes, links by rate, ports down, islands (and
// those no subnet manager has activated) and unreached peers. Pure: computed from the model,
// rendered as text or JSON.
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "topo/fabric.h"

namespace ibburn::topo {

// Physically up (LinkUp) but not Active (Initialize, Armed): the subnet manager has not
// activated the port (yet).
bool up_not_active(const Port& p);

// Active and LinkUp, where known: the port carries traffic (a file that says neither counts).
bool port_up(const Port& p);

// Port GUID -> the HCA (or router) port. A GUID two ports share (a fault topo check reports)
// is left out: a rank on it is not placed, rather than placed on the wrong HCA.
std::unordered_map<uint64_t, PortEnd> hca_ports_by_guid(const Fabric& fabric);

// An island (connected part of the fabric) most of whose linked ports are up but not
// Active: no subnet manager works there (none runs, it crashed, or it sits in another island
// of a split fabric).
struct IslandWithoutSm {
  std::vector<NodeId> nodes;  // sorted
  size_t switches = 0;
  size_t cas = 0;
  size_t links = 0;              // links inside the island
  std::vector<Link> not_active;  // its links with an end up but not Active
  std::string example;           // a node to recognise it by: its first switch, else first node
};

// Islands where more than half of the linked ports whose state is known are up but not
// Active. Ports of unknown state (dumps without states) count for nothing.
std::vector<IslandWithoutSm> islands_without_sm(const Fabric& fabric);
// What it holds: '16 switches, 512 HCAs'.
std::string contents(const IslandWithoutSm& island);

struct FabricSummary {
  size_t switches = 0;
  size_t cas = 0;
  size_t routers = 0;
  size_t links = 0;
  std::map<std::string, size_t> links_by_rate;  // "4xHDR" -> count; "?" when unknown
  size_t rate_mismatched_links = 0;             // the two ends report different rates
  size_t switch_ports_down = 0;                 // external switch ports without a link
  std::vector<std::string> ca_ports_down;       // "host1 mlx5_0[1]": HCA ports without a link
  std::vector<size_t> island_sizes;             // nodes per island, largest first
  std::vector<IslandWithoutSm> islands_without_sm;
  std::vector<std::string> unreached_peers;  // ports whose cable leads nowhere discovered
};

FabricSummary summarize(const Fabric& fabric);
// Human text; lists at most `max_list` names per list.
std::string to_text(const FabricSummary& s, size_t max_list = 20);
nlohmann::json to_json(const FabricSummary& s);

}  // namespace ibburn::topo
