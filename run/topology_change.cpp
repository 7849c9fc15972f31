#include "run/topology_change.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "common/finding_details.h"
#include "report/history.h"

namespace ibburn::run {
namespace {

using counters::Counter;
using counters::PortSample;
using topo::PortState;

constexpr size_t kCablesListed = 256;  // a whole island gone would list every cable
// At least this many links of one switch, and half of them, changing in one stage are the
// switch's doing (a reboot takes all of them; two or three cables are cables).
constexpr size_t kBounceMinLinks = 4;

std::string ref_name(const PortRef& r) { return fmt::format("{}[{}]", r.node, r.port); }

std::string plural(size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

// How often the link went down between the two sweeps (the counter saturates, and a reset
// makes the current value the rise).
uint64_t rise_of(Counter counter, const PortSample& before, const PortSample& now) {
  if (!before.counters.has(counter) || !now.counters.has(counter)) return 0;
  const uint64_t a = before.counters.get(counter), b = now.counters.get(counter);
  return b >= a ? b - a : b;
}
uint64_t link_downed_rise(const PortSample& before, const PortSample& now) {
  return rise_of(Counter::LinkDownedCounter, before, now);
}

// Not up now, where it was up (or its state was not read) before.
bool went_down(const PortSample& before, const PortSample& now) {
  if (!now.reachable) return true;
  if (now.state == PortState::Unknown) return false;
  return now.state == PortState::Down || (before.state == PortState::Active && now.state != PortState::Active);
}

std::string state_text(const PortSample& p) {
  if (!p.reachable) return "no longer answers";
  std::string s = topo::to_string(p.state);
  if (p.phys != topo::PhysState::Unknown) s += std::string("/") + topo::to_string(p.phys);
  return s;
}

// Packets toward what went away are discarded on their way (the sweep's own MADs to a
// vanished switch's LID among them, at the vantage point's leaf, every sweep from then on):
// relay errors and discards alone, in or after the stage of a change, are that change's doing.
bool routing_only(const Finding& f) {
  if (f.kind != FindingKind::ErrorsUnderLoad) return false;
  const auto rise = details_of<FindingKind::ErrorsUnderLoad>(f).rise;
  if (rise.empty()) return false;
  for (const auto& [counter, count] : rise)
    if (counter != counters::counter_name(Counter::PortRcvSwitchRelayErrors) &&
        counter != counters::counter_name(Counter::PortXmitDiscards))
      return false;
  return true;
}

// Smallest-index representative, for grouping nodes that dropped out together.
size_t find_root(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

TopologyWatch::TopologyWatch(counters::Snapshot start) : start_(std::move(start)) {
  std::set<std::string> shared_names;  // switches nobody named share their description
  for (size_t i = 0; i < start_.ports.size(); ++i) {
    const PortSample& p = start_.ports[i];
    if (const auto [it, fresh] = guid_of_name_.emplace(p.node, p.node_guid); !fresh && it->second != p.node_guid)
      shared_names.insert(p.node);
    start_at_.emplace(PortKey{p.node_guid, p.port}, i);
    if (p.node_type == topo::NodeType::Switch && p.reachable && p.peer) ++links_of_[p.node];
  }
  // A peer named by a shared name is not known by GUID: guessing would join or cover the wrong node.
  for (const auto& name : shared_names) guid_of_name_.erase(name);
}

void TopologyWatch::observe(const counters::Snapshot& poll) {
  // A poll that reached fewer than half the ports says more about the vantage point (its own
  // link, its leaf) than about the ports: only the states it read count then.
  const size_t answered =
      std::count_if(poll.ports.begin(), poll.ports.end(), [](const auto& q) { return q.reachable; });
  const bool trust_silence = 2 * answered >= poll.ports.size();
  const Unreached unreached = unreached_in(poll);
  for (const PortSample& q : poll.ports) {
    if (!q.reachable && !trust_silence) continue;
    const auto at = start_at_.find({q.node_guid, q.port});
    if (at == start_at_.end()) continue;
    const PortSample& p = start_.ports[at->second];
    if (!p.reachable || !p.peer || p.state == PortState::Down) continue;
    if (q.by_directed_route) note_behind(reached_around_, q, unreached.behind);
    const bool up = q.reachable && (q.state == PortState::Active || q.state == PortState::Unknown);
    if (up) continue;
    if (!q.reachable && unreached.nodes.contains(q.node_guid)) {
      note_behind(unreached_, q, unreached.behind);
      continue;
    }
    seen_down_.emplace(PortKey{q.node_guid, q.port}, SeenDown{state_text(q), q.reachable});
  }
}

void TopologyWatch::note_behind(std::map<PortKey, Behind>& ports, const PortSample& p,
                                const std::set<std::string>& behind) {
  ports.try_emplace(PortKey{p.node_guid, p.port}, Behind{p.ref(), {}})
      .first->second.behind.insert(behind.begin(), behind.end());
}

TopologyWatch::Unreached TopologyWatch::unreached_in(const counters::Snapshot& seen) const {
  std::map<PortKey, const PortSample*> at;
  std::map<uint64_t, bool> answers;  // node GUID -> any of its ports answered
  for (const auto& q : seen.ports) {
    at[{q.node_guid, q.port}] = &q;
    answers[q.node_guid] = answers[q.node_guid] || q.reachable;
  }
  const auto sample = [&](uint64_t guid, int port) -> const PortSample* {
    const auto it = at.find({guid, port});
    return it == at.end() ? nullptr : it->second;
  };
  const auto guid_of = [&](const std::string& name) {
    const auto it = guid_of_name_.find(name);
    return it == guid_of_name_.end() ? uint64_t{0} : it->second;
  };
  // Cables seen down where an end answered and said so.
  Unreached out;
  for (const auto& p : start_.ports) {
    if (!p.reachable || !p.peer || p.state == PortState::Down) continue;
    const PortSample* q = sample(p.node_guid, p.port);
    if (q && q->reachable && q->state != PortState::Unknown && q->state != PortState::Active)
      out.behind.insert(report::cable_name(p.ref(), *p.peer));
  }
  if (out.behind.empty()) return out;
  // Silent nodes in groups joined by their cables; a group some of whose cables are up at an
  // end that answers is there (its links are up) but out of the management path's reach.
  std::map<uint64_t, std::vector<const PortSample*>> ports_of;
  for (const auto& p : start_.ports)
    if (p.reachable) ports_of[p.node_guid].push_back(&p);
  std::set<uint64_t> visited;
  for (const auto& [guid, ports] : ports_of) {
    if (answers[guid] || visited.contains(guid)) continue;
    std::vector<uint64_t> group{guid}, todo{guid};
    visited.insert(guid);
    bool link_up = false;
    while (!todo.empty()) {
      const uint64_t n = todo.back();
      todo.pop_back();
      for (const PortSample* p : ports_of[n]) {
        if (!p->peer) continue;
        const uint64_t m = guid_of(p->peer->node);
        if (!m) continue;
        if (answers[m]) {
          const PortSample* far = sample(m, p->peer->port);
          link_up = link_up || (far && far->reachable && far->state == PortState::Active);
        } else if (visited.insert(m).second) {
          group.push_back(m);
          todo.push_back(m);
        }
      }
    }
    if (link_up) out.nodes.insert(group.begin(), group.end());
  }
  return out;
}

void TopologyWatch::cover(size_t finding, const PortSample& p) {
  affected_guid_.insert({p.node_guid, p.port});
  affected_ref_.emplace(std::pair(p.node, p.port), finding);
  if (!p.peer) return;
  affected_ref_.emplace(std::pair(p.peer->node, p.peer->port), finding);
  if (auto g = guid_of_name_.find(p.peer->node); g != guid_of_name_.end())
    affected_guid_.insert({g->second, p.peer->port});
}

size_t TopologyWatch::compare(const counters::Snapshot& now, int stage) {
  const size_t before = findings_.size();
  std::map<PortKey, const PortSample*> now_at;
  for (const auto& p : now.ports) now_at[{p.node_guid, p.port}] = &p;
  auto now_of = [&](const PortSample& s) -> const PortSample* {
    auto it = now_at.find({s.node_guid, s.port});
    return it == now_at.end() ? nullptr : it->second;
  };

  // Nodes by GUID: which answered before stage 1, which answer now, and their ports then.
  std::map<uint64_t, size_t> node_of;  // GUID -> index into nodes
  struct NodeSeen {
    std::string name;
    uint64_t guid;
    bool is_switch;
    bool answered = false, answers = false;
    std::vector<const PortSample*> ports;  // start samples
  };
  std::vector<NodeSeen> nodes;
  for (const auto& p : start_.ports) {
    auto [it, fresh] = node_of.try_emplace(p.node_guid, nodes.size());
    if (fresh) nodes.push_back({p.node, p.node_guid, p.node_type == topo::NodeType::Switch, false, false, {}});
    NodeSeen& n = nodes[it->second];
    n.ports.push_back(&p);
    n.answered = n.answered || p.reachable;
    const PortSample* q = now_of(p);
    n.answers = n.answers || (q && q->reachable);
  }
  // Silent behind a cable down now while a link of theirs is up: not gone, unreachable.
  const Unreached unreached_now = unreached_in(now);
  auto unreached = [&](size_t n) { return !nodes[n].answers && unreached_now.nodes.contains(nodes[n].guid); };
  auto dropped = [&](size_t n) { return nodes[n].answered && !nodes[n].answers && !unreached(n); };
  auto peer_node = [&](const PortSample& p) -> std::optional<size_t> {
    if (!p.peer) return std::nullopt;
    auto g = guid_of_name_.find(p.peer->node);
    if (g == guid_of_name_.end()) return std::nullopt;
    return node_of.at(g->second);
  };

  // Nodes that dropped out, grouped by the cables between them: behind a switch that went
  // away, its HCAs (and switches reached only through it) go too, and are that one cause.
  std::vector<size_t> parent(nodes.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!dropped(n)) continue;
    for (const PortSample* p : nodes[n].ports)
      if (auto m = peer_node(*p); m && dropped(*m)) parent[find_root(parent, n)] = find_root(parent, *m);
  }
  std::map<size_t, std::vector<size_t>> groups;
  for (size_t n = 0; n < nodes.size(); ++n)
    if (dropped(n)) groups[find_root(parent, n)].push_back(n);

  // Cables that changed, by name: evidence from either end.
  struct CableChange {
    std::vector<PortRef> ends;
    nlohmann::json evidence = nlohmann::json::array();
    std::vector<std::string> words;
    bool still_down = false;
    // Ends the polls saw down, whose LinkDownedCounter stepped, whose LinkErrorRecoveryCounter did.
    int seen = 0, stepped = 0, retrained = 0;
    std::vector<const PortSample*> samples;
  };
  std::map<std::string, CableChange> cables;
  // `seen`: what a poll during the stage saw of this end ("" when none saw it down);
  // `recovered`: its LinkErrorRecoveryCounter's rise (counted only towards a switch's bounce).
  auto cable_end = [&](const PortSample& was, const PortSample* is, uint64_t rise, bool down,
                       const std::string& seen = "", uint64_t recovered = 0) {
    const std::string key = report::cable_name(was.ref(), *was.peer);
    CableChange& c = cables[key];
    if (c.ends.empty()) c.ends = {was.ref(), *was.peer};
    c.samples.push_back(&was);
    c.still_down = c.still_down || down;
    nlohmann::json e = {{"port", ref_name(was.ref())}, {"answers", is && is->reachable}};
    if (is && is->reachable && is->state != PortState::Unknown) {
      e["state"] = state_text(*is);
      if (was.state != PortState::Unknown) e["was"] = state_text(was);
    }
    if (rise) e["link_downed_rise"] = rise;
    if (recovered) e["link_error_recovery_rise"] = recovered;
    if (!seen.empty()) e["seen_during_stage"] = seen;
    if (down) c.words.push_back(ref_name(was.ref()) + " " + (is ? state_text(*is) : "no longer swept"));
    if (rise) c.words.push_back(fmt::format("{} LinkDownedCounter +{}", ref_name(was.ref()), rise));
    if (!seen.empty() && !down) c.words.push_back(ref_name(was.ref()) + " seen " + seen + " during the stage");
    if (recovered) c.words.push_back(fmt::format("{} LinkErrorRecoveryCounter +{}", ref_name(was.ref()), recovered));
    if (!seen.empty()) ++c.seen;
    if (rise) ++c.stepped;
    if (recovered) ++c.retrained;
    c.evidence.push_back(std::move(e));
  };

  std::vector<bool> with_switch(nodes.size(), false);  // dropped together with a switch
  bool switch_dropped = false;
  for (const auto& [root, members] : groups)
    if (std::any_of(members.begin(), members.end(), [&](size_t n) { return nodes[n].is_switch; })) {
      switch_dropped = true;
      for (size_t n : members) with_switch[n] = true;
    }

  for (auto& [root, members] : groups) {
    std::vector<std::string> switches, hcas;
    for (size_t n : members) (nodes[n].is_switch ? switches : hcas).push_back(nodes[n].name);
    std::sort(switches.begin(), switches.end());
    std::sort(hcas.begin(), hcas.end());
    if (switches.empty()) {
      // HCAs alone: each of their cables is a cable that went down.
      for (size_t n : members)
        for (const PortSample* p : nodes[n].ports)
          if (p->reachable && p->peer) cable_end(*p, now_of(*p), 0, true);
      continue;
    }
    const std::string key = "switch " + switches.front();
    if (!reported_.insert(key).second) continue;
    std::set<std::string> cable_set;
    std::string error;
    for (size_t n : members)
      for (const PortSample* p : nodes[n].ports) {
        if (p->peer) cable_set.insert(report::cable_name(p->ref(), *p->peer));
        if (const PortSample* q = now_of(*p); error.empty() && q && !q->error.empty()) error = q->error;
      }
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& c : cable_set)
      if (listed.size() < kCablesListed) listed.push_back(c);
    Finding f;
    f.kind = FindingKind::SwitchDropped;
    f.severity = Severity::Error;
    for (const auto& s : switches) f.ports.push_back({s, 0});
    const std::string who =
        switches.size() == 1
            ? switches.front()
            : fmt::format("{} switches ({}{})", switches.size(),
                          fmt::join(switches.begin(), switches.begin() + std::min<size_t>(switches.size(), 4), ", "),
                          switches.size() > 4 ? ", ..." : "");
    f.message = fmt::format("{} dropped out during stage {}: {} down{}", who, stage,
                            plural(cable_set.size(), "cable", "cables"),
                            hcas.empty() ? ""
                                         : fmt::format(", {} unreachable behind {}", plural(hcas.size(), "HCA", "HCAs"),
                                                       switches.size() == 1 ? "it" : "them"));
    f.details = {{"stage", stage},
                 {"switches", switches},
                 {"hcas", hcas},
                 {"cables_down", cable_set.size()},
                 {"cables", listed},
                 {"error", error},
                 {"note",
                  "no longer answers the counters sweep; findings on its cables (errors under load at the far "
                  "ends) are listed under consequences, and coverage from counters is not judged on them"}};
    findings_.push_back(std::move(f));
    for (size_t n : members)
      for (const PortSample* p : nodes[n].ports) cover(findings_.size() - 1, *p);
  }

  // Cables of nodes that still answer: down now, or bounced (LinkDownedCounter stepped, a
  // poll saw them down). A switch port whose link only retrained (LinkErrorRecoveryCounter)
  // is kept aside: alone it is the counters check's business; with many of its switch's
  // links at once it is part of the switch's bounce.
  std::map<std::string, std::vector<std::pair<const PortSample*, uint64_t>>> retrained_of_switch;
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!nodes[n].answered || dropped(n)) continue;
    if (unreached(n)) {
      for (const PortSample* p : nodes[n].ports)
        if (p->reachable && p->peer) note_behind(unreached_, *p, unreached_now.behind);
      continue;
    }
    for (const PortSample* p : nodes[n].ports) {
      if (!p->reachable || !p->peer) continue;
      const auto m = peer_node(*p);
      if (m && with_switch[*m]) continue;  // the dropped switch's finding covers it
      const PortSample* q = now_of(*p);
      const uint64_t rise = q && q->reachable ? link_downed_rise(*p, *q) : 0;
      const bool down = !q || went_down(*p, *q);
      // A switch that dropped out takes the routes through it along: until the SM reroutes,
      // nodes beyond it do not answer the polls, which says nothing about their own links.
      const auto seen = seen_down_.find({p->node_guid, p->port});
      const std::string seen_text =
          seen == seen_down_.end() || (!seen->second.answered && switch_dropped) ? "" : seen->second.state;
      // An HCA that dropped out: its cable is down whatever this end's state says.
      if (rise || down || !seen_text.empty() || (m && dropped(*m)))
        cable_end(*p, q, rise, down, seen_text);
      else if (const uint64_t r = q && q->reachable ? rise_of(Counter::LinkErrorRecoveryCounter, *p, *q) : 0;
               r && p->node_type == topo::NodeType::Switch)
        retrained_of_switch[p->node].push_back({p, r});
    }
  }
  seen_down_.clear();
  // The changed cables of each switch (switch -> cable keys), and whether that many of one
  // switch's links at once are its bounce.
  const auto changed_by_switch = [&] {
    std::map<std::string, std::set<std::string>> out;
    for (const auto& [key, c] : cables)
      for (const PortSample* p : c.samples)
        if (p->node_type == topo::NodeType::Switch) out[p->node].insert(key);
    return out;
  };
  const auto links_of = [&](const std::string& sw) {
    const auto it = links_of_.find(sw);
    return it == links_of_.end() ? size_t{0} : it->second;
  };
  const auto bounce = [&](const std::string& sw, size_t changed) {
    return changed >= kBounceMinLinks && 2 * changed >= links_of(sw);
  };
  // A switch's retrained links join its changed ones where together they reach a bounce.
  const auto changed_before = changed_by_switch();
  for (const auto& [sw, ports] : retrained_of_switch) {
    const auto it = changed_before.find(sw);
    if (!bounce(sw, (it == changed_before.end() ? 0 : it->second.size()) + ports.size())) continue;
    for (const auto& [p, r] : ports) cable_end(*p, now_of(*p), 0, false, "", r);
  }

  // Many links of one switch at once are the switch: one finding, its cables claimed from the
  // per-cable findings below. Switches with the most changed links claim first.
  auto changed_of_switch = changed_by_switch();
  std::vector<std::string> by_count;
  for (const auto& [sw, keys] : changed_of_switch) by_count.push_back(sw);
  std::stable_sort(by_count.begin(), by_count.end(), [&](const std::string& a, const std::string& b) {
    return changed_of_switch[a].size() > changed_of_switch[b].size();
  });
  std::set<std::string> claimed;
  std::map<std::string, size_t> finding_of_cable;  // this compare's findings by cable
  for (const std::string& sw : by_count) {
    std::vector<std::string> keys;
    for (const auto& k : changed_of_switch[sw])
      if (!claimed.count(k)) keys.push_back(k);
    if (!bounce(sw, keys.size()) || !reported_.insert("bounce " + sw).second) continue;
    const size_t links = links_of(sw);
    int still_down = 0, seen = 0, stepped = 0, retrained = 0;
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& k : keys) {
      const CableChange& c = cables.at(k);
      still_down += c.still_down;
      seen += c.seen > 0;
      stepped += c.stepped > 0;
      retrained += c.retrained > 0;
      if (listed.size() < kCablesListed) listed.push_back(k);
    }
    Finding f;
    f.kind = FindingKind::SwitchBounced;
    f.severity = Severity::Error;
    f.ports = {{sw, 0}};
    std::vector<std::string> how;
    if (seen) how.push_back(fmt::format("{} seen down by the polls during the stage", seen));
    if (stepped) how.push_back(fmt::format("{} with LinkDownedCounter stepping", stepped));
    if (retrained) how.push_back(fmt::format("{} with LinkErrorRecoveryCounter stepping", retrained));
    f.message =
        fmt::format("{} bounced during stage {}: {} of its {} went down at once{} ({})", sw, stage, keys.size(),
                    plural(links, "link", "links"),
                    still_down ? fmt::format(", {} still down", still_down) : ", and came back", fmt::join(how, ", "));
    f.details = {{"stage", stage},
                 {"switch", sw},
                 {"links", links},
                 {"links_down", keys.size()},
                 {"still_down", still_down},
                 {"seen_during_stage", seen},
                 {"link_downed_stepped", stepped},
                 {"link_error_recovery_stepped", retrained},
                 {"cables", listed}};
    findings_.push_back(std::move(f));
    for (const auto& k : keys) {
      finding_of_cable[k] = findings_.size() - 1;
      claimed.insert(k);
      reported_.insert("cable " + k);
      for (const PortSample* p : cables.at(k).samples) cover(findings_.size() - 1, *p);
    }
  }
  for (auto& [key, c] : cables) {
    if (!reported_.insert("cable " + key).second) continue;
    Finding f;
    f.kind = FindingKind::LinkDown;
    f.severity = Severity::Error;
    f.ports = c.ends;
    f.message = fmt::format("cable {} went down{} during stage {}: {}", key, c.still_down ? "" : " and came back",
                            stage, fmt::join(c.words, ", "));
    f.details = {{"stage", stage}, {"still_down", c.still_down}, {"ends", c.evidence}};
    findings_.push_back(std::move(f));
    finding_of_cable[key] = findings_.size() - 1;
    for (const PortSample* p : c.samples) cover(findings_.size() - 1, *p);
  }
  attach_behind(finding_of_cable);
  return findings_.size() - before;
}

void TopologyWatch::attach_behind(const std::map<std::string, size_t>& finding_of_cable) {
  // Each port goes with the first of the cables it was behind that is a finding now; behind
  // none (reported in an earlier stage, or back before anything said so), it is not judged:
  // its silence was the management path's, not its link's. An unreachable port is covered by
  // that finding; one reached around the cable was checked as any other.
  const auto place = [&](std::map<PortKey, Behind>& ports, bool covered) {
    std::map<size_t, std::vector<std::string>> ports_of;
    for (const auto& [key, u] : ports)
      for (const auto& cable : u.behind)
        if (const auto it = finding_of_cable.find(cable); it != finding_of_cable.end()) {
          ports_of[it->second].push_back(ref_name(u.port));
          if (covered) {
            affected_guid_.insert(key);
            affected_ref_.emplace(std::pair(u.port.node, u.port.port), it->second);
          }
          break;
        }
    ports.clear();
    return ports_of;
  };
  for (auto& [index, ports] : place(unreached_, true)) {
    Finding& f = findings_[index];
    f.message += fmt::format("; {} did not answer behind it (their links up: unreachable, not down)",
                             plural(ports.size(), "port", "ports"));
    f.details["unreachable_behind"] = ports;
  }
  for (auto& [index, ports] : place(reached_around_, false)) {
    Finding& f = findings_[index];
    f.message +=
        fmt::format("; {} behind it answered by directed route around it", plural(ports.size(), "port", "ports"));
    f.details["reached_around"] = ports;
  }
}

void TopologyWatch::absorb(std::vector<Finding>& findings) {
  auto cause = [&](const Finding& f) -> std::optional<size_t> {
    for (const auto& r : f.ports)
      if (auto it = affected_ref_.find({r.node, r.port}); it != affected_ref_.end()) return it->second;
    if (!routing_only(f)) return std::nullopt;
    for (size_t c = findings_.size(); c-- > 0;)
      if (findings_[c].details.value("stage", 0) <= details_of<FindingKind::ErrorsUnderLoad>(f).stage) return c;
    return std::nullopt;
  };
  std::vector<Finding> kept;
  for (auto& f : findings) {
    if (auto c = cause(f)) {
      nlohmann::json& list = findings_[*c].details["consequences"];
      if (list.is_null()) list = nlohmann::json::array();
      list.push_back({{"kind", f.kind}, {"message", f.message}});
    } else {
      kept.push_back(std::move(f));
    }
  }
  findings = std::move(kept);
}

std::vector<double> TopologyWatch::judgeable(const routing::RouteModel& m, std::vector<double> expected) const {
  for (routing::EdgeId e = 0; e < m.cables->size() && e < expected.size(); ++e) {
    const routing::Edge& edge = m.cables->edge(e);
    if (affected(m.fabric.node(edge.from.node).guid, edge.from.port) ||
        affected(m.fabric.node(edge.to.node).guid, edge.to.port))
      expected[e] = 0;
  }
  return expected;
}

}  // namespace ibburn::run
