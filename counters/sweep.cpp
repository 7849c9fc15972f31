#include "counters/sweep.h"

#include <infiniband/mad.h>

#include <chrono>
#include <map>

#include "counters/drill_down.h"
#include "counters/pma_decode.h"
#include "topo/directed_route.h"

namespace ibburn::counters {
namespace {

uint16_t node_lid(const topo::Node& n) {
  for (const auto& p : n.ports)
    if (p.lid) return p.lid;
  return 0;
}

int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

MadRequest request(uint8_t mgmt_class, uint8_t method, uint16_t attr, const PortSample& p) {
  MadRequest r;
  r.mgmt_class = mgmt_class;
  r.method = method;
  r.attr_id = attr;
  r.dlid = p.lid;
  return r;
}

MadRequest port_counters_get(const PortSample& p, int port_select) {
  MadRequest r = request(kClassPerfMgt, kMethodGet, kAttrPortCounters, p);
  encode_port_counters_get(r.data.data(), port_select);
  return r;
}

// A PortCounters answer (or its absence) into the port's sample.
void apply_port_counters(PortSample& p, const MadResult& r) {
  if (r.ok()) {
    p.reachable = true;
    decode_port_counters(r.data.data(), p.counters);
  } else {
    p.error =
        r.answered ? "PortCounters answered with MAD status " + std::to_string(r.status) : "PortCounters: " + r.error;
  }
}

// A PortInfo answer of a state poll into the port's sample.
void apply_port_state(PortSample& p, const MadResult& r) {
  const PortStateInfo s = decode_port_info_state(r.data.data());
  p.reachable = true;
  p.state = s.state;
  p.phys = s.phys;
}

constexpr int kAllPortSelect = 0xFF;

}  // namespace

std::vector<PortSample> sweep_targets(const topo::Fabric& fabric, std::vector<topo::PortEnd>* ends) {
  std::vector<PortSample> out;
  for (topo::NodeId id = 0; id < fabric.size(); ++id) {
    const topo::Node& n = fabric.node(id);
    const uint16_t switch_lid = n.is_switch() ? node_lid(n) : 0;
    for (int pn = 1; pn < static_cast<int>(n.ports.size()); ++pn) {
      const topo::Port& port = n.ports[pn];
      if (!n.is_switch() && !port.lid && !port.linked()) continue;
      PortSample s;
      s.node = n.name.empty() ? n.description : n.name;
      s.node_guid = n.guid;
      s.port_guid = port.guid ? port.guid : n.guid;
      s.node_type = n.type;
      s.lid = n.is_switch() ? switch_lid : port.lid;
      s.port = pn;
      if (port.linked()) {
        const topo::Node& peer = fabric.node(port.remote.node);
        s.peer = PortRef{peer.name.empty() ? peer.description : peer.name, port.remote.port};
      }
      if (!s.lid) s.error = "no LID known for this port (run with a subnet manager)";
      out.push_back(std::move(s));
      if (ends) ends->push_back({id, pn});
    }
  }
  return out;
}

Sweeper::Sweeper(const topo::Fabric& fabric, const MadOptions& mad, SweepOptions options)
    : fabric_(fabric),
      targets_(sweep_targets(fabric, &target_ends_)),
      options_(options),
      window_(mad, options.window) {}

Snapshot Sweeper::sweep() {
  if (options_.errors_only) return sweep_errors_only(*options_.errors_only);
  Snapshot snap;
  snap.time_ms = unix_ms();
  snap.ports = targets_;

  // Per addressable port: PortCounters, then optionally PortCountersExtended and PortInfo.
  enum Kind { kPc, kPce, kPi };
  struct Slot {
    size_t port;
    Kind kind;
  };
  std::vector<MadRequest> reqs;
  std::vector<Slot> slots;
  for (size_t i = 0; i < snap.ports.size(); ++i) {
    const PortSample& p = snap.ports[i];
    if (!p.lid) continue;
    reqs.push_back(port_counters_get(p, p.port));
    slots.push_back({i, kPc});
    if (options_.extended) {
      MadRequest pce = request(kClassPerfMgt, kMethodGet, kAttrPortCountersExt, p);
      encode_port_counters_get(pce.data.data(), p.port);
      reqs.push_back(pce);
      slots.push_back({i, kPce});
    }
    if (options_.port_state) {
      MadRequest pi = request(kClassSmiLid, kMethodGet, kAttrPortInfo, p);
      pi.attr_mod = static_cast<uint32_t>(p.port);
      reqs.push_back(pi);
      slots.push_back({i, kPi});
    }
  }
  std::vector<MadResult> results = window_.run(reqs);

  // PortCounters first so the 64-bit data counters of PortCountersExtended replace the
  // 32-bit ones whatever order the answers came in.
  for (Kind pass : {kPc, kPce, kPi}) {
    for (size_t k = 0; k < slots.size(); ++k) {
      if (slots[k].kind != pass) continue;
      PortSample& p = snap.ports[slots[k].port];
      const MadResult& r = results[k];
      if (pass == kPc) {
        apply_port_counters(p, r);
      } else if (pass == kPce && r.ok() && p.reachable) {
        decode_port_counters_ext(r.data.data(), p.counters);
      } else if (pass == kPi && r.ok()) {
        PortStateInfo s = decode_port_info_state(r.data.data());
        p.state = s.state;
        p.phys = s.phys;
      }
    }
  }

  if (options_.clear) {
    std::vector<MadRequest> clears;
    for (const auto& p : snap.ports) {
      if (!p.reachable) continue;
      MadRequest pc = request(kClassPerfMgt, kMethodSet, kAttrPortCounters, p);
      encode_port_counters_clear(pc.data.data(), p.port);
      clears.push_back(pc);
      if (p.counters.has(Counter::PortUnicastXmitPkts)) {  // extended counters were read
        MadRequest pce = request(kClassPerfMgt, kMethodSet, kAttrPortCountersExt, p);
        encode_port_counters_ext_clear(pce.data.data(), p.port);
        clears.push_back(pce);
      }
    }
    window_.run(clears);
  }
  return snap;
}

Snapshot Sweeper::sweep_port_states() {
  Snapshot snap;
  snap.time_ms = unix_ms();
  snap.ports = targets_;
  std::vector<MadRequest> reqs;
  std::vector<size_t> of_req;
  for (size_t i = 0; i < snap.ports.size(); ++i) {
    const PortSample& p = snap.ports[i];
    if (!p.lid) continue;
    MadRequest pi = request(kClassSmiLid, kMethodGet, kAttrPortInfo, p);
    pi.attr_mod = static_cast<uint32_t>(p.port);
    reqs.push_back(pi);
    of_req.push_back(i);
  }
  const std::vector<MadResult> results = window_.run(reqs);
  for (size_t k = 0; k < results.size(); ++k) {
    PortSample& p = snap.ports[of_req[k]];
    if (!results[k].ok()) {
      p.error = "PortInfo did not answer";
      continue;
    }
    apply_port_state(p, results[k]);
  }
  ask_around_down_ports(snap);
  return snap;
}

void Sweeper::ask_around_down_ports(Snapshot& snap) {
  // Init and Armed links carry SMPs: only a port that says Down is routed around.
  topo::PortKeySet down;
  std::vector<size_t> silent;
  for (size_t i = 0; i < snap.ports.size(); ++i) {
    const PortSample& p = snap.ports[i];
    if (p.reachable && p.state == topo::PortState::Down) down.insert({target_ends_[i].node, target_ends_[i].port});
    if (!p.reachable && p.lid) silent.push_back(i);
  }
  if (down.empty() || silent.empty()) return;
  const std::optional<topo::PortEnd> local = local_port();
  if (!local) return;
  const topo::RoutesAround routes(fabric_, *local, std::move(down));
  std::vector<MadRequest> reqs;
  std::vector<size_t> of_req;
  for (size_t i : silent) {
    const auto route = routes.to(target_ends_[i]);
    if (!route) continue;
    reqs.push_back(topo::directed_smp_get(kAttrPortInfo, static_cast<uint32_t>(snap.ports[i].port), *route));
    of_req.push_back(i);
  }
  const std::vector<MadResult> results = window_.run(reqs);
  for (size_t k = 0; k < results.size(); ++k) {
    if (!results[k].ok()) continue;
    PortSample& p = snap.ports[of_req[k]];
    apply_port_state(p, results[k]);
    p.by_directed_route = true;
    p.error.clear();
  }
}

std::optional<topo::PortEnd> Sweeper::local_port() {
  if (!local_) local_.emplace(topo::local_port(fabric_, window_));
  return *local_;
}

Snapshot Sweeper::sweep_errors_only(const Thresholds& thresholds) {
  Snapshot snap;
  snap.time_ms = unix_ms();
  snap.ports = targets_;

  // Round 1: the totals of every switch (by LID) and the PortCounters of every CA port.
  std::map<uint16_t, std::vector<size_t>> switch_ports;  // LID -> its ports in snap.ports
  std::vector<MadRequest> reqs;
  std::vector<size_t> ca_ports;
  for (size_t i = 0; i < snap.ports.size(); ++i) {
    const PortSample& p = snap.ports[i];
    if (!p.lid) continue;
    if (p.node_type == topo::NodeType::Switch) {
      switch_ports[p.lid].push_back(i);
    } else {
      ca_ports.push_back(i);
      reqs.push_back(port_counters_get(p, p.port));
    }
  }
  std::vector<uint16_t> switch_lids;
  for (const auto& [lid, ports] : switch_ports) {
    switch_lids.push_back(lid);
    reqs.push_back(port_counters_get(snap.ports[ports.front()], kAllPortSelect));
  }
  std::vector<MadResult> results = window_.run(reqs);

  // Round 2: every port of a switch whose totals could hide a flagged port, or whose
  // totals did not come (no AllPortSelect support, timeout: its ports tell).
  std::vector<size_t> drill;
  for (size_t k = 0; k < switch_lids.size(); ++k) {
    const MadResult& r = results[ca_ports.size() + k];
    const auto& ports = switch_ports[switch_lids[k]];
    CounterValues totals;
    if (r.ok()) decode_port_counters(r.data.data(), totals);
    if (!r.ok() || totals_need_drill_down(totals, thresholds)) {
      drill.insert(drill.end(), ports.begin(), ports.end());
    } else {
      for (size_t i : ports) snap.ports[i].reachable = true;  // answered through the totals
    }
  }
  for (size_t k = 0; k < ca_ports.size(); ++k) apply_port_counters(snap.ports[ca_ports[k]], results[k]);
  reqs.clear();
  for (size_t i : drill) reqs.push_back(port_counters_get(snap.ports[i], snap.ports[i].port));
  results = window_.run(reqs);
  for (size_t k = 0; k < drill.size(); ++k) apply_port_counters(snap.ports[drill[k]], results[k]);

  // Data counters are not judged here: 32-bit ones pin within minutes of traffic, and the
  // full sweep reads them as 64-bit PortCountersExtended instead.
  for (auto& p : snap.ports)
    for (size_t i = static_cast<size_t>(Counter::PortXmitData); i < kCounterCount; ++i) p.counters.bits[i] = 0;
  return snap;
}

}  // namespace ibburn::counters
