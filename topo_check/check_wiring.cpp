#include "topo_check/check_wiring.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <unordered_map>

#include "common/finding_details.h"
#include "common/guid.h"
#include "common/union_find.h"
#include "topo/fabric_summary.h"
#include "wiring/cable_scopes.h"
#include "wiring/wiring_index.h"

namespace ibburn::topo_check {

using topo::Fabric;
using topo::kNoNode;
using topo::Link;
using topo::LinkRate;
using topo::Node;
using topo::NodeId;
using topo::PhysState;
using topo::Port;
using topo::PortEnd;
using topo::PortState;
using wiring::kNoWiringNode;
using wiring::WiringEnd;
using wiring::WiringIndex;
using wiring::WiringLayout;
using wiring::WiringNode;

namespace {

using nlohmann::json;

std::string hex_guid(uint64_t g) { return Guid{g}.text(); }

std::string text(const PortRef& r) { return r.node + "[" + std::to_string(r.port) + "]"; }
json to_json(const PortRef& r) { return {{"node", r.node}, {"port", r.port}}; }

// Down, Polling, Disabled, training...: the cable itself does not carry a link, as opposed
// to a link that is up and waits for the subnet manager to activate it.
bool physically_down(const Port& p) { return !topo::port_up(p) && !topo::up_not_active(p); }

// A port whose link is administratively or physically held down, as opposed to one with
// nothing plugged in (Polling) or unknown state.
bool held_down(const Port& p) {
  return p.phys == PhysState::Disabled || p.phys == PhysState::Training || p.phys == PhysState::LinkErrorRecovery ||
         p.phys == PhysState::PhyTest || p.state == PortState::Init || p.state == PortState::Armed;
}

std::string state_text(const Port& p) { return std::string(to_string(p.state)) + "/" + to_string(p.phys); }

// What both ends can run: the lower of each end's enabled (else supported) width and speed.
LinkRate common_capability(const Port& a, const Port& b) {
  auto cap = [](const Port& p) { return p.enabled.known() ? p.enabled : p.supported; };
  LinkRate ca = cap(a), cb = cap(b);
  if (!ca.known() || !cb.known()) return {};
  return {lanes(ca.width) <= lanes(cb.width) ? ca.width : cb.width, std::min(ca.speed, cb.speed)};
}

bool below(LinkRate have, LinkRate want) { return lanes(have.width) < lanes(want.width) || have.speed < want.speed; }

class Checker {
 public:
  Checker(const Fabric& f, const wiring::Wiring& w, const CheckOptions& o) : f_(f), plan_(w), opt_(o) {}

  std::vector<Finding> run() {
    resolve_names();
    duplicate_guids();
    islands_without_sm();
    check_cables();
    unexplained_links();
    unresolved_plan_nodes();
    unknown_nodes();
    split();
    // A difference most cables of a scope share is one finding about the scope.
    return group_systemic_causes(std::move(out_), wiring::cable_scopes(plan_, layout()), opt_.systemic);
  }

 private:
  const Fabric& f_;
  WiringIndex plan_;
  const CheckOptions& opt_;
  std::vector<WiringNode> plan_of_;  // discovered node -> plan node
  std::vector<NodeId> node_of_;      // plan node -> discovered node
  std::vector<bool> ambiguous_;      // a second node carrying a planned name
  std::vector<std::string> display_;
  std::vector<char> cable_ok_;
  std::vector<char> reported_;    // cable -> told already in another cable's finding
  std::vector<int> plan_plane_;   // plan node -> its plane (0: a plan of one subnet)
  std::vector<char> without_sm_;  // node -> its island has no active subnet manager
  std::unique_ptr<WiringLayout> layout_;
  std::vector<Finding> out_;

  void add(FindingKind kind, Severity sev, std::string message, std::vector<PortRef> ports,
           json details = json::object()) {
    out_.push_back({kind, sev, std::move(message), std::move(ports), std::move(details)});
  }

  PortRef ref(PortEnd e) const { return {display_[e.node], e.port}; }
  PortRef ref(WiringEnd e) const {
    NodeId n = node_of_[e.node];
    return {n == kNoNode ? plan_.name(e.node) : display_[n], e.port};
  }
  WiringEnd plan_end(PortEnd e) const {
    WiringNode p = plan_of_[e.node];
    return p == kNoWiringNode ? WiringEnd{} : WiringEnd{p, e.port};
  }
  std::string cable_text(size_t c) const { return text(ref(plan_.end_a(c))) + " - " + text(ref(plan_.end_b(c))); }
  json cable_json(size_t c) const { return {to_json(ref(plan_.end_a(c))), to_json(ref(plan_.end_b(c)))}; }

  const WiringLayout& layout() {
    if (!layout_) {
      std::vector<int8_t> hint(plan_.size(), 0);
      for (WiringNode p = 0; p < plan_.size(); ++p)
        if (node_of_[p] != kNoNode) hint[p] = f_.node(node_of_[p]).is_ca() ? 1 : 2;
      layout_ = std::make_unique<WiringLayout>(layout_plan(plan_, hint));
    }
    return *layout_;
  }

  // Names: the node's name (node-name-map or inferred), else its description, looked up in
  // the plan. A node whose name several nodes share is shown with its GUID.
  void resolve_names() {
    const size_t n = f_.size();
    plan_of_.assign(n, kNoWiringNode);
    ambiguous_.assign(n, false);
    node_of_.assign(plan_.size(), kNoNode);
    cable_ok_.assign(plan_.cable_count(), 0);
    reported_.assign(plan_.cable_count(), 0);
    plan_plane_ = plan_.node_planes();
    std::unordered_map<WiringNode, std::vector<NodeId>> dups;
    for (NodeId i = 0; i < n; ++i) {
      const Node& node = f_.node(i);
      const WiringNode p = plan_.find(node.name, node.description);
      if (p == kNoWiringNode) continue;
      if (node_of_[p] == kNoNode) {
        node_of_[p] = i;
        plan_of_[i] = p;
      } else {
        ambiguous_[i] = true;
        dups[p].push_back(i);
      }
    }
    // Only unplanned nodes and carriers of a duplicated planned name can share a name.
    std::unordered_map<std::string_view, int> unplanned_uses;
    for (NodeId i = 0; i < n; ++i)
      if (plan_of_[i] == kNoWiringNode) ++unplanned_uses[f_.node(i).name];
    display_.resize(n);
    for (NodeId i = 0; i < n; ++i) {
      const Node& node = f_.node(i);
      bool shared =
          plan_of_[i] == kNoWiringNode ? ambiguous_[i] || unplanned_uses[node.name] > 1 : dups.count(plan_of_[i]) > 0;
      display_[i] = shared || node.name.empty() ? node.name + " (" + hex_guid(node.guid) + ")" : node.name;
    }
    for (auto& [p, others] : dups) {
      std::vector<PortRef> ports{{display_[node_of_[p]], 0}};
      std::string list = display_[node_of_[p]];
      for (NodeId o : others) {
        ports.push_back({display_[o], 0});
        list += ", " + display_[o];
      }
      add(FindingKind::DuplicateName, Severity::Error,
          std::to_string(others.size() + 1) + " nodes carry the planned name '" + plan_.name(p) + "': " + list +
              " (only the first is checked against the plan)",
          std::move(ports), {{"name", plan_.name(p)}});
    }
  }

  void duplicate_guids() {
    std::vector<std::pair<uint64_t, NodeId>> by_guid;
    by_guid.reserve(f_.size());
    for (NodeId i = 0; i < f_.size(); ++i) by_guid.push_back({f_.node(i).guid, i});
    std::sort(by_guid.begin(), by_guid.end());
    for (size_t i = 0; i < by_guid.size();) {
      size_t j = i;
      while (j < by_guid.size() && by_guid[j].first == by_guid[i].first) ++j;
      if (j - i > 1) {
        std::vector<PortRef> ports;
        std::string list;
        for (size_t k = i; k < j; ++k) {
          ports.push_back({display_[by_guid[k].second], 0});
          list += (k > i ? ", " : "") + display_[by_guid[k].second];
        }
        add(FindingKind::DuplicateGuid, Severity::Critical,
            "GUID " + hex_guid(by_guid[i].first) + " is used by " + std::to_string(j - i) + " nodes: " + list,
            std::move(ports), {{"guid", hex_guid(by_guid[i].first)}});
      }
      i = j;
    }
  }

  // What the discovered fabric has at a planned port.
  struct Seen {
    bool node_seen = false;      // the planned node was discovered
    const Port* port = nullptr;  // its port (null: node seen but has no such port)
    PortEnd at;                  // the discovered port
    bool linked() const { return port && port->linked(); }
  };
  Seen seen(WiringEnd e) const {
    Seen s;
    NodeId n = node_of_[e.node];
    if (n == kNoNode) return s;
    s.node_seen = true;
    s.at = {n, e.port};
    s.port = f_.node(n).port(e.port);
    return s;
  }

  void check_cables() {
    std::vector<size_t> bad;
    for (size_t c = 0; c < plan_.cable_count(); ++c) {
      Seen a = seen(plan_.end_a(c)), b = seen(plan_.end_b(c));
      if (a.linked() && b.port && a.port->remote == b.at) {
        cable_ok_[c] = 1;
        check_link(c, a, b);
      } else {
        bad.push_back(c);
      }
    }
    // Exchanged plugs first, then plugs in another plane (each naming the cable it displaced),
    // so that no cable is told twice whatever the order of the list.
    for (size_t c : bad) {
      if (reported_[c]) continue;
      Seen a = seen(plan_.end_a(c)), b = seen(plan_.end_b(c));
      if (!a.linked() || !b.linked()) continue;
      if (int other = swap_partner(c, a, b); other >= 0) reported_[c] = reported_[other] = 1;
    }
    for (size_t c : bad)
      if (!reported_[c] && cross_plane(c, seen(plan_.end_a(c)), seen(plan_.end_b(c)))) reported_[c] = 1;
    for (size_t c : bad) {
      if (reported_[c]) continue;
      Seen a = seen(plan_.end_a(c)), b = seen(plan_.end_b(c));
      if (!a.linked() && !b.linked()) {
        // A cable to a node nobody saw belongs to that node's missing_node/unreached finding.
        if (a.node_seen && b.node_seen) empty_cable(c, a, b);
        continue;
      }
      miswired(c, a, b);
    }
  }

  void check_link(size_t c, const Seen& a, const Seen& b) {
    const Port& pa = *a.port;
    const Port& pb = *b.port;
    const std::string states = text(ref(a.at)) + " " + state_text(pa) + ", " + text(ref(b.at)) + " " + state_text(pb);
    if (physically_down(pa) || physically_down(pb)) {
      add(FindingKind::PortDown, Severity::Error, cable_text(c) + " is cabled as planned but not up: " + states,
          {ref(a.at), ref(b.at)}, {{"states", {state_text(pa), state_text(pb)}}});
      return;
    }
    // Its island's no_sm finding already tells about this cable. The link trained, so its
    // rate is still checked.
    if ((topo::up_not_active(pa) || topo::up_not_active(pb)) && !without_sm_[a.at.node])
      add(FindingKind::PortNotActive, Severity::Warning,
          cable_text(c) + " is up but the subnet manager has not activated it: " + states, {ref(a.at), ref(b.at)},
          {{"states", {state_text(pa), state_text(pb)}}});
    LinkRate act = pa.active;
    if (pb.active.known() && (!act.known() || below(pb.active, act))) act = pb.active;
    if (!act.known()) return;
    const auto& planned = plan_.cable(c).rate;
    if (planned && planned->known()) {
      if (below(act, *planned))
        add(FindingKind::Degraded, Severity::Error,
            cable_text(c) + " runs at " + to_string(act) + ", planned " + to_string(*planned), {ref(a.at), ref(b.at)},
            DegradedDetails{to_string(act), to_string(*planned), std::nullopt});
      return;
    }
    if (!opt_.below_supported) return;
    LinkRate cap = common_capability(pa, pb);
    if (cap.known() && below(act, cap))
      add(FindingKind::Degraded, Severity::Warning,
          cable_text(c) + " runs at " + to_string(act) + ", both ends support " + to_string(cap),
          {ref(a.at), ref(b.at)}, DegradedDetails{to_string(act), std::nullopt, to_string(cap)});
  }

  // Islands most of whose ports are up but not Active: one finding per island instead of one
  // per cable (thousands on a fabric whose SM is not running); the cables go in its details.
  void islands_without_sm() {
    without_sm_.assign(f_.size(), 0);
    for (const auto& island : topo::islands_without_sm(f_)) {
      std::vector<WiringNode> planned;
      std::vector<PortRef> switches, nodes;
      for (NodeId n : island.nodes) {
        without_sm_[n] = 1;
        if (plan_of_[n] != kNoWiringNode) planned.push_back(plan_of_[n]);
        (f_.node(n).is_switch() ? switches : nodes).push_back({display_[n], 0});
      }
      json cables = json::array();
      for (const Link& l : island.not_active)
        cables.push_back({{"ports", {to_json(ref(l.a)), to_json(ref(l.b))}},
                          {"states", {state_text(f_.port(l.a)), state_text(f_.port(l.b))}}});
      const bool whole = island.nodes.size() == f_.size();
      std::string holds = topo::contents(island);
      json details = {
          {"switches", island.switches}, {"hcas", island.cas}, {"links", island.links}, {"not_active", cables}};
      if (!whole && !planned.empty()) {
        // The same words as the split finding's islands, so the two can be matched.
        details["summary"] = layout().summarize(planned, island.nodes.size() - planned.size());
        holds += ": " + details["summary"].get<std::string>();
      }
      add(FindingKind::NoSm, Severity::Error,
          std::string("no active subnet manager in ") + (whole ? "the fabric" : "an island of the fabric") + " (" +
              holds + "): " + std::to_string(island.not_active.size()) + " of " + std::to_string(island.links) +
              " cables are up but not activated; start a subnet manager that reaches " + (whole ? "it" : "this island"),
          switches.empty() ? std::move(nodes) : std::move(switches), std::move(details));
    }
  }

  // Both planned ports are present and empty.
  void empty_cable(size_t c, const Seen& a, const Seen& b) {
    const Port* down = a.port && held_down(*a.port) ? a.port : b.port && held_down(*b.port) ? b.port : nullptr;
    if (down) {
      add(FindingKind::PortDown, Severity::Error,
          cable_text(c) + " is not up: " + text(ref(a.at)) + " " + (a.port ? state_text(*a.port) : "no such port") +
              ", " + text(ref(b.at)) + " " + (b.port ? state_text(*b.port) : "no such port"),
          {ref(a.at), ref(b.at)});
      return;
    }
    bool unreached = (a.port && a.port->peer_unreached) || (b.port && b.port->peer_unreached);
    if (unreached) {
      add(FindingKind::Unreached, Severity::Error,
          cable_text(c) + ": a link is reported but discovery did not reach its other end", {ref(a.at), ref(b.at)});
      return;
    }
    std::string why;
    for (const Seen* s : {&a, &b})
      if (!s->port) why += "; " + display_[s->at.node] + " has no port " + std::to_string(s->at.port);
    add(FindingKind::Missing, Severity::Error, cable_text(c) + " is planned but not connected" + why,
        {ref(a.at), ref(b.at)}, {{"planned", cable_json(c)}});
  }

  // Planned pa-pb and px-pw, found pa-px and pb-pw: the two cables match the plan once the
  // plugs in pb and px are exchanged. Reports that and returns the other cable, or -1.
  int swap_partner(size_t c, const Seen& a, const Seen& b) {
    WiringEnd x = plan_end(a.port->remote);
    int other = plan_.cable_at(x);
    if (other < 0 || static_cast<size_t>(other) == c || cable_ok_[other]) return -1;
    WiringEnd w = plan_.peer(x);
    if (plan_end(b.port->remote) != w) return -1;
    PortRef pa = ref(a.at), pb = ref(b.at), px = ref(a.port->remote), pw = ref(b.port->remote);
    // Name the pair of plugs on one node when there is one (two ports of one leaf).
    bool at_a_side = pa.node == pw.node && pb.node != px.node;
    const PortRef& p1 = at_a_side ? pa : pb;
    const PortRef& p2 = at_a_side ? pw : px;
    // Two HCAs of a host with their plugs exchanged between two planes' leaves.
    const int plane_c = plan_.cable(c).plane, plane_other = plan_.cable(other).plane;
    const bool planes = plane_c != plane_other;
    add(planes ? FindingKind::CrossPlane : FindingKind::Swapped, Severity::Error,
        (planes
             ? "each in the other's plane (" + std::to_string(plane_c) + " and " + std::to_string(plane_other) + "): "
             : std::string()) +
            "planned " + text(pa) + " - " + text(pb) + " and " + text(px) + " - " + text(pw) + ", found " + text(pa) +
            " - " + text(px) + " and " + text(pb) + " - " + text(pw) + ": exchange the plugs in " + text(p1) + " and " +
            text(p2),
        {pa, pb, px, pw},
        {{"planned", {{to_json(pa), to_json(pb)}, {to_json(px), to_json(pw)}}},
         {"found", {{to_json(pa), to_json(px)}, {to_json(pb), to_json(pw)}}},
         {"exchange", {to_json(p1), to_json(p2)}}});
    return other;
  }

  // A side of cable c linked into another plane than c's: one cross_plane finding naming the
  // port, the switch port it reached and both planes, not a miswire in one plane and a
  // stranger in the other. The cable planned at the port it reached is told with it.
  bool cross_plane(size_t c, const Seen& a, const Seen& b) {
    const int plane = plan_.cable(c).plane;
    if (plane == 0) return false;
    for (auto [s, far] : {std::pair{&a, plan_.end_b(c)}, std::pair{&b, plan_.end_a(c)}}) {
      if (!s->linked()) continue;
      const WiringEnd landed = plan_end(s->port->remote);
      if (!landed.valid() || plan_plane_[landed.node] == 0 || plan_plane_[landed.node] == plane) continue;
      // Told from the HCA's side: it is the HCA that sits in the wrong plane.
      if (!f_.node(s->at.node).is_ca() && f_.node(s->port->remote.node).is_ca()) continue;
      const int there = plan_plane_[landed.node];
      const PortRef self = ref(s->at), reached = ref(s->port->remote), meant = ref(far);
      std::string msg = text(self) + " is cabled into plane " + std::to_string(there) + ", on " + text(reached) +
                        "; the design puts it in plane " + std::to_string(plane) + ", on " + text(meant);
      json details = {{"planned", cable_json(c)},
                      {"found", {to_json(self), to_json(reached)}},
                      {"planned_plane", plane},
                      {"found_plane", there}};
      std::vector<PortRef> ports{self, reached, meant};
      if (const int other = plan_.cable_at(landed); other >= 0 && !cable_ok_[other]) {
        reported_[other] = 1;
        const PortRef owner = ref(plan_.peer(landed));
        msg += " (" + text(reached) + " is planned for " + text(owner) + ")";
        details["displaced"] = cable_json(other);
        ports.push_back(owner);
      }
      add(FindingKind::CrossPlane, Severity::Error, std::move(msg), std::move(ports), std::move(details));
      return true;
    }
    return false;
  }

  void miswired(size_t c, const Seen& a, const Seen& b) {
    std::vector<PortRef> ports{ref(plan_.end_a(c)), ref(plan_.end_b(c))};
    json found = json::array();
    std::string what;
    for (auto [s, e] : {std::pair{&a, plan_.end_a(c)}, std::pair{&b, plan_.end_b(c)}}) {
      what += what.empty() ? "" : ", ";
      if (!s->node_seen) {
        what += plan_.name(e.node) + " not seen";
      } else if (!s->port) {
        what += display_[s->at.node] + " has no port " + std::to_string(e.port);
      } else if (!s->linked()) {
        what += text(ref(s->at)) + " unconnected";
      } else {
        PortRef r = ref(s->port->remote);
        what += text(ref(s->at)) + " - " + text(r);
        ports.push_back(r);
        found.push_back({to_json(ref(s->at)), to_json(r)});
      }
    }
    add(FindingKind::Miswired, Severity::Error, "planned " + cable_text(c) + ", found " + what, std::move(ports),
        {{"planned", cable_json(c)}, {"found", found}});
  }

  // Discovered links that no planned port explains.
  void unexplained_links() {
    for (NodeId i = 0; i < f_.size(); ++i) {
      for (const Port& p : f_.node(i).ports) {
        PortEnd self{i, p.number}, peer = p.remote;
        if (!peer.valid() || std::tie(peer.node, peer.port) < std::tie(self.node, self.port)) continue;
        if (plan_.cable_at(plan_end(self)) >= 0 || plan_.cable_at(plan_end(peer)) >= 0) continue;
        // Links of unplanned or ambiguous nodes are told in their own findings.
        if (plan_of_[i] == kNoWiringNode || plan_of_[peer.node] == kNoWiringNode) continue;
        add(FindingKind::Extra, Severity::Warning,
            text(ref(self)) + " - " + text(ref(peer)) + " is connected but not planned", {ref(self), ref(peer)});
      }
    }
  }

  // Planned nodes nobody discovered: missing when we looked everywhere they should be (every
  // planned neighbour was discovered and followed), unreached otherwise (they may sit in a
  // part of the fabric no snapshot came from).
  void unresolved_plan_nodes() {
    const std::vector<char> lost = planes_missing();
    std::vector<WiringNode> unreached;
    for (WiringNode p = 0; p < plan_.size(); ++p) {
      if (node_of_[p] != kNoNode || lost[plan_plane_[p]]) continue;
      bool all_seen = true;
      for (int c : plan_.cables_of(p)) {
        Seen s = seen(plan_.end_a(c).node == p ? plan_.end_b(c) : plan_.end_a(c));
        if (!s.node_seen || (s.port && s.port->peer_unreached)) all_seen = false;
      }
      if (all_seen) {
        missing_node(p);
      } else {
        unreached.push_back(p);
      }
    }
    if (unreached.empty()) return;
    // One finding per connected part of the plan that nobody reached.
    std::vector<uint32_t> index(plan_.size(), UINT32_MAX);
    for (uint32_t i = 0; i < unreached.size(); ++i) index[unreached[i]] = i;
    UnionFind parts(unreached.size());
    for (size_t c = 0; c < plan_.cable_count(); ++c) {
      uint32_t a = index[plan_.end_a(c).node], b = index[plan_.end_b(c).node];
      if (a != UINT32_MAX && b != UINT32_MAX) parts.join(a, b);
    }
    std::unordered_map<uint32_t, std::vector<WiringNode>> groups;
    for (uint32_t i = 0; i < unreached.size(); ++i) groups[parts.find(i)].push_back(unreached[i]);
    std::string from = opt_.vantage_points <= 1
                           ? "from this vantage point"
                           : "from any of the " + std::to_string(opt_.vantage_points) + " snapshots";
    for (auto& [root, nodes] : groups) {
      std::vector<PortRef> ports;
      json names = json::array();
      for (WiringNode p : nodes) {
        ports.push_back({plan_.name(p), 0});
        names.push_back(plan_.name(p));
      }
      add(FindingKind::Unreached, Severity::Error,
          std::to_string(nodes.size()) + " planned node" + (nodes.size() == 1 ? "" : "s") + " not reached " + from +
              " (" + layout().summarize(nodes) + ", e.g. " + plan_.name(nodes.front()) +
              "): the fabric may be split; discover from inside that part too and pass each "
              "snapshot with --fabric",
          std::move(ports), {{"nodes", names}});
    }
  }

  // Planes of which no node was discovered: one plane_missing each (its nodes are not told one
  // by one), with why the sources failed when one did. Returns plane -> missing.
  std::vector<char> planes_missing() {
    const int planes = plan_.cable_count() ? *std::max_element(plan_plane_.begin(), plan_plane_.end()) : 0;
    std::vector<char> lost(planes + 1, 0);
    if (planes == 0) return lost;
    std::vector<std::vector<WiringNode>> nodes(planes + 1);
    std::vector<char> found(planes + 1, 0);
    for (WiringNode p = 0; p < plan_.size(); ++p) {
      nodes[plan_plane_[p]].push_back(p);
      if (node_of_[p] != kNoNode) found[plan_plane_[p]] = 1;
    }
    std::string failed;
    for (const topo::Subnet& sub : f_.subnets())
      if (!sub.error.empty()) failed += (failed.empty() ? "; " : ", ") + sub.source + " failed: " + sub.error;
    for (int k = 1; k <= planes; ++k) {
      if (found[k] || nodes[k].empty()) continue;
      lost[k] = 1;
      add(FindingKind::PlaneMissing, Severity::Critical,
          "plane " + std::to_string(k) + " (" + layout().summarize(nodes[k]) +
              ") was not discovered: no --fabric source reached it" + failed +
              "; give one source per plane (live:CA:PORT through an HCA on that plane, or its snapshot)",
          {}, PlaneDetails{k, {"not discovered"}, 0});
    }
    return lost;
  }

  void missing_node(WiringNode p) {
    std::vector<PortRef> ports{{plan_.name(p), 0}};
    std::string where;
    json cables = json::array();
    size_t listed = 0;
    for (int c : plan_.cables_of(p)) {
      WiringEnd q = plan_.end_a(c).node == p ? plan_.end_b(c) : plan_.end_a(c);
      cables.push_back(cable_json(c));
      Seen s = seen(q);
      if (!s.node_seen || listed++ >= 4) continue;
      ports.push_back(ref(s.at));
      where += (where.empty() ? "; " : ", ") + text(ref(s.at)) +
               (s.linked() ? " leads to " + text(ref(s.port->remote)) : " is unconnected");
    }
    bool is_switch = plan_.cables_of(p).size() > 2;
    add(FindingKind::MissingNode, is_switch ? Severity::Critical : Severity::Error,
        plan_.name(p) + " is planned (" + std::to_string(plan_.cables_of(p).size()) +
            (plan_.cables_of(p).size() == 1 ? " cable" : " cables") + ") but not found" + where,
        std::move(ports), {{"cables", cables}});
  }

  void unknown_nodes() {
    for (NodeId i = 0; i < f_.size(); ++i) {
      if (plan_of_[i] != kNoWiringNode || ambiguous_[i]) continue;
      const Node& node = f_.node(i);
      std::vector<PortRef> ports{{display_[i], 0}};
      std::string where;
      size_t links = 0;
      for (const Port& p : node.ports) {
        if (!p.linked()) continue;
        if (links++ < 4) {
          ports.push_back(ref(p.remote));
          where += (where.empty() ? "; linked to " : ", ") + text(ref(p.remote));
        }
      }
      if (links > 4) where += " and " + std::to_string(links - 4) + " more";
      // No cable of it to check (a ports report lists a switch by an unlinked port alone).
      if (links == 0) where = "; it has no linked port, so no cable of it to check";
      add(FindingKind::UnknownNode,
          links == 0     ? Severity::Info
          : node.is_ca() ? Severity::Warning
                         : Severity::Error,
          display_[i] + " (" + to_string(node.type) + ", GUID " + hex_guid(node.guid) + ") is not in the plan" + where,
          std::move(ports), {{"guid", hex_guid(node.guid)}, {"type", to_string(node.type)}});
    }
  }

  // More discovered islands than the plan has: one finding per planned network that came
  // out in pieces, each piece summarised, with the planned cables that would join them.
  void split() {
    auto islands = f_.islands();
    std::vector<uint32_t> island_of(f_.size());
    for (uint32_t k = 0; k < islands.size(); ++k)
      for (NodeId n : islands[k]) island_of[n] = k;
    // With planes, an island is the plane most of its planned nodes are in; a node of another
    // plane in it is a cable into the wrong plane (cross_plane), not a piece of its own plane.
    std::vector<int> island_plane(islands.size(), 0);
    for (uint32_t k = 0; k < islands.size(); ++k) {
      std::unordered_map<int, size_t> votes;
      size_t most = 0;
      for (NodeId n : islands[k])
        if (plan_of_[n] != kNoWiringNode && ++votes[plan_plane_[plan_of_[n]]] > most)
          most = votes[plan_plane_[plan_of_[n]]], island_plane[k] = plan_plane_[plan_of_[n]];
    }
    auto elsewhere = [&](NodeId n, uint32_t k) { return plan_plane_[plan_of_[n]] != island_plane[k]; };
    // plan component -> islands holding its nodes (in island order)
    std::vector<std::vector<uint32_t>> parts(plan_.component_count());
    std::vector<uint32_t> last(plan_.component_count(), UINT32_MAX);
    for (uint32_t k = 0; k < islands.size(); ++k) {
      for (NodeId n : islands[k]) {
        WiringNode p = plan_of_[n];
        if (p == kNoWiringNode || elsewhere(n, k)) continue;
        uint32_t comp = plan_.component()[p];
        if (last[comp] != k) parts[comp].push_back(k), last[comp] = k;
      }
    }
    for (uint32_t comp = 0; comp < parts.size(); ++comp) {
      if (parts[comp].size() < 2) continue;
      std::unordered_map<uint32_t, uint32_t> local;  // island -> 0..n-1
      for (uint32_t k : parts[comp]) local.emplace(k, static_cast<uint32_t>(local.size()));
      std::vector<std::vector<WiringNode>> held(local.size());
      std::vector<size_t> unplanned(local.size(), 0);
      for (uint32_t k : parts[comp])
        for (NodeId n : islands[k]) {
          if (plan_of_[n] != kNoWiringNode && elsewhere(n, k)) continue;
          if (plan_of_[n] != kNoWiringNode && plan_.component()[plan_of_[n]] == comp)
            held[local[k]].push_back(plan_of_[n]);
          else
            ++unplanned[local[k]];
        }
      UnionFind join(local.size());
      json joining = json::array();
      std::vector<PortRef> ports;
      std::string cables;
      size_t crossing = 0;
      for (size_t c = 0; c < plan_.cable_count(); ++c) {
        NodeId a = node_of_[plan_.end_a(c).node], b = node_of_[plan_.end_b(c).node];
        if (a == kNoNode || b == kNoNode || plan_.component()[plan_.end_a(c).node] != comp) continue;
        // Only between the plane's own pieces (an end in another plane is cross_plane's).
        if (island_of[a] == island_of[b] || !local.count(island_of[a]) || !local.count(island_of[b])) continue;
        ++crossing;
        if (!join.join(local[island_of[a]], local[island_of[b]])) continue;
        joining.push_back(cable_json(c));
        ports.push_back(ref(plan_.end_a(c)));
        ports.push_back(ref(plan_.end_b(c)));
        if (joining.size() <= opt_.max_listed) cables += (cables.empty() ? "" : ", ") + cable_text(c);
      }
      if (joining.size() > opt_.max_listed)
        cables += " and " + std::to_string(joining.size() - opt_.max_listed) + " more";
      std::string pieces;
      json islands_json = json::array();
      for (size_t i = 0; i < held.size(); ++i) {
        std::string summary = layout().summarize(held[i], unplanned[i]);
        pieces += " [" + std::to_string(i + 1) + "] " + summary + ";";
        islands_json.push_back(
            {{"summary", summary}, {"planned_nodes", held[i].size()}, {"unplanned_nodes", unplanned[i]}});
      }
      const int plane = plan_plane_[held.front().front()];
      std::string msg = (plane ? "plane " + std::to_string(plane) + " is split into "
                               : std::string("the planned fabric is split into ")) +
                        std::to_string(held.size()) + " disjoint islands:" + pieces + " ";
      if (joining.empty()) {
        msg += "no planned cable joins them";
      } else {
        msg += std::to_string(crossing) + " planned cables run between them; cabling these " +
               std::to_string(joining.size()) + " as planned would join them: " + cables;
      }
      add(FindingKind::Split, Severity::Critical, std::move(msg), std::move(ports),
          {{"islands", islands_json}, {"joining_cables", joining}, {"crossing_cables", crossing}});
    }
  }
};

}  // namespace

std::vector<Finding> check_wiring(const Fabric& discovered, const wiring::Wiring& plan, const CheckOptions& options) {
  return Checker(discovered, plan, options).run();
}

}  // namespace ibburn::topo_check
