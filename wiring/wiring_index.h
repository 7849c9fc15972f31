#pragma once
// The wiring plan indexed for topo check and switch-name inference: plan node names interned
// to dense ids, the cable at every (node, port) found in O(1), and the plan's structure
// (tiers counted up from the HCAs, pods = what stays connected under the top tier) so that
// a set of nodes can be summarized as 'pod 3: 16 leaf, 16 spine, 512 HCAs'. Pure logic.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "wiring/wiring.h"

namespace ibburn::wiring {

using WiringNode = uint32_t;
inline constexpr WiringNode kNoWiringNode = UINT32_MAX;

struct WiringEnd {
  WiringNode node = kNoWiringNode;
  int port = 0;
  bool valid() const { return node != kNoWiringNode; }
  bool operator==(const WiringEnd&) const = default;
};

class WiringIndex {
 public:
  explicit WiringIndex(const wiring::Wiring& plan);

  size_t size() const { return names_.size(); }
  size_t cable_count() const { return ends_.size(); }
  const std::string& name(WiringNode n) const { return *names_[n]; }
  WiringNode find(std::string_view name) const;  // kNoWiringNode when not planned
  // A discovered node's plan node: by its name, else by its description.
  WiringNode find(std::string_view name, std::string_view description) const;
  // Per plan node, its plane: its cables' (the CSV reader made them agree; 0 without planes).
  std::vector<int> node_planes() const;
  const wiring::Cable& cable(size_t c) const { return plan_.cables[c]; }
  WiringEnd end_a(size_t c) const { return ends_[c].first; }
  WiringEnd end_b(size_t c) const { return ends_[c].second; }
  // The cable planned at a node's port, or -1.
  int cable_at(WiringEnd e) const;
  // The other end of the cable planned at `e` (invalid when none is planned there).
  WiringEnd peer(WiringEnd e) const;
  std::span<const int> cables_of(WiringNode n) const {
    return {cables_.data() + cable_first_[n], cable_first_[n + 1] - cable_first_[n]};
  }
  int max_port(WiringNode n) const { return static_cast<int>(port_first_[n + 1] - port_first_[n]) - 1; }
  // Connected components of the plan; component id per node.
  const std::vector<uint32_t>& component() const { return component_; }
  size_t component_count() const { return component_count_; }

 private:
  const wiring::Wiring& plan_;
  std::vector<const std::string*> names_;  // the plan's own strings
  std::unordered_map<std::string_view, WiringNode> by_name_;
  std::vector<std::pair<WiringEnd, WiringEnd>> ends_;
  // Flat per-node arrays: node n's ports 0..max are port_cable_[port_first_[n] + port],
  // its cables cables_[cable_first_[n] ..].
  std::vector<size_t> port_first_, cable_first_;
  std::vector<int> port_cable_, cables_;
  std::vector<uint32_t> component_;
  size_t component_count_ = 0;
};

// What a plan node is, as far as the plan's structure (and the discovered fabric, when it
// knows the node's type) tells.
struct WiringLayout {
  std::vector<bool> is_hca;
  std::vector<int> tier;  // 0 = HCA (or unknown), 1 = leaf, 2 = spine, ...
  int top_tier = 0;
  std::vector<int> pod;  // -1 = not in a pod (top tier, or a 2-tier plan)
  std::vector<std::string> pod_label;

  // "leaf", "spine", "core", "tier 5"; "HCA" for tier 0.
  std::string tier_word(int t) const;
  // 'pod 3: 16 leaf, 16 spine, 512 HCAs; 8 core' for the given plan nodes, plus
  // '; N unplanned' when `unplanned` > 0.
  std::string summarize(const std::vector<WiringNode>& nodes, size_t unplanned = 0) const;
};

// `hca_hint[n]`: 1 = known CA, 2 = known switch, 0 = unknown (then a node with at most two
// planned ports, numbered at most 2, counts as an HCA).
WiringLayout layout_plan(const WiringIndex& plan, const std::vector<int8_t>& hca_hint);

}  // namespace ibburn::wiring
