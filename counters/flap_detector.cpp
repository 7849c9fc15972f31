#include "counters/flap_detector.h"

#include <algorithm>

#include <fmt/format.h>

namespace ibburn::counters {
namespace {

bool is_initializing(topo::PortState s) { return s == topo::PortState::Init || s == topo::PortState::Armed; }

// Not Active: a known non-Active state, or a PMA that stopped answering.
bool seen_not_active(const PortSample& p) {
  if (!p.reachable && p.state == topo::PortState::Unknown) return true;
  return p.state != topo::PortState::Unknown && p.state != topo::PortState::Active;
}

// Both ends of the link, sorted, so each link is one finding whichever end flapped.
std::vector<PortRef> link_of(const PortSample& p) {
  std::vector<PortRef> ends{p.ref()};
  if (p.peer) ends.push_back(*p.peer);
  std::sort(ends.begin(), ends.end(),
            [](const PortRef& a, const PortRef& b) { return a.node != b.node ? a.node < b.node : a.port < b.port; });
  return ends;
}

std::string link_key(const std::vector<PortRef>& ends) {
  std::string k;
  for (const auto& e : ends) k += fmt::format("{}[{}];", e.node, e.port);
  return k;
}

std::string link_label(const std::vector<PortRef>& ends) {
  std::vector<std::string> parts;
  for (const auto& e : ends) parts.push_back(fmt::format("{}[{}]", e.node, e.port));
  return fmt::format("{}", fmt::join(parts, " <-> "));
}

}  // namespace

nlohmann::json to_json(const WatchEvent& e) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : e.ports) ports.push_back({{"node", p.node}, {"port", p.port}});
  nlohmann::json j = {{"time_ms", e.time_ms}, {"sweep", e.sweep}, {"event", e.event}, {"ports", ports}};
  if (!e.details.empty()) j["details"] = e.details;
  return j;
}

bool FlapDetector::flapping(const PortHistory& h) const {
  return h.bounces >= rules_.min_bounces || h.max_initializing >= rules_.ufm_min;
}

void FlapDetector::record(PortHistory& h, const PortSample& now, int64_t time_ms, std::vector<WatchEvent>& events) {
  const PortSample& before = h.last;
  auto event = [&](const std::string& name, nlohmann::json details) {
    events.push_back({time_ms, sweeps_, name, {now.ref()}, std::move(details)});
  };
  if (before.reachable != now.reachable)
    event(now.reachable ? "reachable" : "unreachable",
          now.reachable ? nlohmann::json::object() : nlohmann::json{{"error", now.error}});
  if (now.state != topo::PortState::Unknown && before.state != topo::PortState::Unknown && now.state != before.state)
    event("state", {{"from", topo::to_string(before.state)},
                    {"to", topo::to_string(now.state)},
                    {"phys_state", topo::to_string(now.phys)}});

  // Rises of error counters between the two sweeps (read in both, not cleared).
  int link_downs = 0;
  if (before.reachable && now.reachable) {
    for (size_t i = 0; i < kErrorCounterCount; ++i) {
      Counter c = counter_at(i);
      // PortXmitWait climbs with any congestion; it is judged by threshold at the end.
      if (c == Counter::PortXmitWait || !before.counters.has(c) || !now.counters.has(c)) continue;
      uint64_t a = before.counters.get(c), b = now.counters.get(c);
      if (b <= a) continue;
      if (c == Counter::LinkDownedCounter) {
        link_downs = static_cast<int>(b - a);
        event("link_downed", {{"rise", b - a}, {"value", b}});
      } else {
        event("errors_rising", {{"counter", counter_name(c)}, {"rise", b - a}, {"value", b}});
      }
    }
  }

  // Bounces: every LinkDowned rise is one; an observed down-then-Active is one unless
  // LinkDowned already counted that down.
  int bounces = link_downs;
  if (seen_not_active(now)) {
    if (!h.in_down) {
      h.in_down = true;
      h.down_counted = link_downs > 0;
    }
  } else if (now.reachable) {  // Active, or answering with its state not read
    if (h.in_down && !h.down_counted && link_downs == 0) bounces += 1;
    h.in_down = false;
    h.down_counted = false;
  }
  h.bounces += bounces;
  for (int i = 0; i < bounces; ++i) h.bounce_times.push_back(time_ms);

  h.initializing.push_back(is_initializing(now.state));
  if (h.initializing.size() > rules_.ufm_window) h.initializing.pop_front();
  h.max_initializing =
      std::max<size_t>(h.max_initializing, std::count(h.initializing.begin(), h.initializing.end(), true));
  h.last = now;
}

std::vector<WatchEvent> FlapDetector::observe(const Snapshot& sweep) {
  ++sweeps_;
  std::vector<WatchEvent> events;
  const std::vector<SampleKey> keys = sample_keys(sweep);
  for (size_t i = 0; i < sweep.ports.size(); ++i) {
    const PortSample& p = sweep.ports[i];
    const SampleKey& key = keys[i];
    auto it = ports_.find(key);
    if (it == ports_.end()) {
      // First sight: the baseline for later changes.
      PortHistory h;
      h.last = p;
      h.in_down = seen_not_active(p);
      h.initializing.push_back(is_initializing(p.state));
      h.max_initializing = h.initializing.back() ? 1 : 0;
      ports_.emplace(key, std::move(h));
      continue;
    }
    bool was_flapping = flapping(it->second);
    record(it->second, p, sweep.time_ms, events);
    if (was_flapping || !flapping(it->second)) continue;
    auto ends = link_of(p);
    if (announced_.insert(link_key(ends)).second)
      events.push_back({sweep.time_ms,
                        sweeps_,
                        "flapping",
                        ends,
                        {{"bounces", it->second.bounces}, {"initializing_sweeps", it->second.max_initializing}}});
  }
  return events;
}

std::vector<Finding> FlapDetector::findings() const {
  std::map<std::string, Finding> by_link;
  for (const auto& [key, h] : ports_) {
    if (!flapping(h)) continue;
    auto ends = link_of(h.last);
    auto [it, fresh] = by_link.try_emplace(link_key(ends));
    Finding& f = it->second;
    if (fresh) {
      f.kind = FindingKind::Flapping;
      f.severity = Severity::Error;
      f.ports = ends;
      f.details = {{"ports", nlohmann::json::array()}};
    }
    f.details["ports"].push_back({{"node", h.last.node},
                                  {"port", h.last.port},
                                  {"bounces", h.bounces},
                                  {"bounce_times_ms", h.bounce_times},
                                  {"max_initializing_of_last", h.max_initializing},
                                  {"window_sweeps", rules_.ufm_window}});
  }
  std::vector<Finding> out;
  for (auto& [key, f] : by_link) {
    int bounces = 0;
    size_t init = 0;
    for (const auto& p : f.details["ports"]) {
      bounces = std::max(bounces, p["bounces"].get<int>());
      init = std::max(init, p["max_initializing_of_last"].get<size_t>());
    }
    f.message = fmt::format(
        "{}: link went down and came back {} time{} over {} sweeps{}", link_label(f.ports), bounces,
        bounces == 1 ? "" : "s", sweeps_,
        init >= rules_.ufm_min ? fmt::format(" (initializing in {} of {} sweeps)", init, rules_.ufm_window) : "");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ibburn::counters
