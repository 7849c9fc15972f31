#include "report/prometheus.h"

#include <iterator>
#include <map>

#include <fmt/format.h>

#include "report/health_section.h"
#include "report/history.h"
#include "report/history_nights.h"
#include "report/prometheus_writer.h"
#include "report/run_verdict.h"

namespace ibburn::report {

std::string escape_label_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

namespace {
using Writer = PrometheusWriter;

constexpr double kBytesPerSecondPerGbps = 1e9 / 8;  // burn rates are Gb/s, 1e9 bits

void findings_by_kind(Writer& w, const std::string& name, const std::string& help,
                      const std::vector<Finding>& findings) {
  std::map<std::pair<std::string, std::string>, int> n;
  for (const auto& f : findings) ++n[{to_string(f.kind), to_string(f.severity)}];
  w.family(name, help);
  for (const auto& [k, c] : n) w.sample({{"kind", k.first}, {"severity", k.second}}, c);
}

void burn_metrics(Writer& w, const burn::BurnSummary& s, bool incomplete) {
  w.family("ibburn_burn_pass", "1 when the burn verdict is pass, 0 otherwise.");
  w.sample({}, s.pass && !incomplete ? 1 : 0);
  std::map<int, std::pair<std::string, std::string>> rank_name;  // rank -> host, endpoint
  w.family("ibburn_burn_endpoint_verdict", "Burn verdict per endpoint (1 for its verdict).");
  for (const auto& e : s.endpoints) {
    const std::string host = e.host.value_or(""), ep = e.endpoint.value_or("");
    rank_name[e.rank] = {host, ep};
    w.sample({{"host", host}, {"endpoint", ep}, {"verdict", to_string(e.verdict)}}, 1);
  }
  w.family("ibburn_burn_endpoint_min_rate_bytes_per_second",
           "Slowest rate an endpoint sent (tx) or received (rx) at, bytes/s.");
  for (const auto& e : s.endpoints)
    for (auto [dir, gbps] : {std::pair{"tx", e.min_tx_gbps}, std::pair{"rx", e.min_rx_gbps}})
      if (gbps)
        w.sample({{"host", e.host.value_or("")}, {"endpoint", e.endpoint.value_or("")}, {"direction", dir}},
                 *gbps * kBytesPerSecondPerGbps);
  auto who = [&](int rank) {
    auto it = rank_name.find(rank);
    return it == rank_name.end() ? fmt::format("rank{}", rank) : it->second.first + ":" + it->second.second;
  };
  w.family("ibburn_burn_flow_rate_bytes_per_second", "Rate of one direction of a flow, bytes/s (receiver's count).");
  for (const auto& f : s.flows)
    w.sample({{"stage", std::to_string(f.stage)},
              {"flow", std::to_string(f.flow)},
              {"from", who(f.from)},
              {"to", who(f.to)},
              {"verdict", to_string(f.verdict)}},
             f.gbps * kBytesPerSecondPerGbps);
}

// One counter family per PerfMgt counter, named as node_exporter's infiniband collector names
// the same counter of a host's own HCA (node_infiniband_symbol_error_total is
// ibburn_infiniband_symbol_error_total here), so a site's panels and alerts read the fabric's
// every port from ibburn's file by the prefix. Not node_'s own names: this file is read by
// node_exporter itself, whose collector's families may not appear twice with other labels.
struct CounterFamily {
  const char* mad;     // the MAD field, as counters.json names it
  const char* suffix;  // after ibburn_infiniband_
  const char* help;
  double scale = 1;  // to the family's unit
};
constexpr CounterFamily kCounterFamilies[] = {
    {"SymbolErrorCounter", "symbol_error_total", "SymbolErrorCounter: minor link errors on any physical lane."},
    {"LinkErrorRecoveryCounter", "link_error_recovery_total",
     "LinkErrorRecoveryCounter: times the link recovered from an error state."},
    {"LinkDownedCounter", "link_downed_total",
     "LinkDownedCounter: times the link failed to recover from an error state and went down."},
    {"PortRcvErrors", "port_errors_received_total", "PortRcvErrors: packets with an error received on the port."},
    {"PortRcvRemotePhysicalErrors", "port_receive_remote_physical_errors_total",
     "PortRcvRemotePhysicalErrors: packets received marked bad (EBP) by an earlier link."},
    {"PortRcvSwitchRelayErrors", "port_receive_switch_relay_errors_total",
     "PortRcvSwitchRelayErrors: packets received that the switch could not forward."},
    {"PortXmitDiscards", "port_discards_transmitted_total",
     "PortXmitDiscards: outbound packets discarded, the port down or congested."},
    {"PortXmitConstraintErrors", "port_constraint_errors_transmitted_total",
     "PortXmitConstraintErrors: packets not sent for a partition or raw constraint."},
    {"PortRcvConstraintErrors", "port_constraint_errors_received_total",
     "PortRcvConstraintErrors: packets received and discarded for a partition or raw constraint."},
    {"LocalLinkIntegrityErrors", "local_link_integrity_errors_total",
     "LocalLinkIntegrityErrors: times local physical errors exceeded their threshold."},
    {"ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors_total",
     "ExcessiveBufferOverrunErrors: runs of flow control periods with an overrun."},
    {"VL15Dropped", "vl15_dropped_total", "VL15Dropped: management packets received and dropped."},
    {"PortXmitWait", "port_transmit_wait_total", "PortXmitWait: ticks the port had data to send and sent none."},
    {"QP1Dropped", "qp1_dropped_total", "QP1Dropped: QP1 (general management) packets dropped."},
    // The MAD counts 4-octet words; node_exporter's family counts bytes.
    {"PortXmitData", "port_data_transmitted_bytes_total", "PortXmitData x 4: data octets transmitted.", 4},
    {"PortRcvData", "port_data_received_bytes_total", "PortRcvData x 4: data octets received.", 4},
    {"PortXmitPkts", "port_packets_transmitted_total", "PortXmitPkts: packets transmitted on all VLs."},
    {"PortRcvPkts", "port_packets_received_total", "PortRcvPkts: packets received on all VLs."},
    {"PortUnicastXmitPkts", "unicast_packets_transmitted_total", "PortUnicastXmitPkts: unicast packets transmitted."},
    {"PortUnicastRcvPkts", "unicast_packets_received_total", "PortUnicastRcvPkts: unicast packets received."},
    {"PortMulticastXmitPkts", "multicast_packets_transmitted_total",
     "PortMulticastXmitPkts: multicast packets transmitted."},
    {"PortMulticastRcvPkts", "multicast_packets_received_total", "PortMulticastRcvPkts: multicast packets received."},
};

// node and port; a CA's device as node_exporter's `device` (its node description's second
// word, "gpu001 mlx5_0"); the cable's other end, as fabric exporters label it, when known.
Labels port_labels(const nlohmann::json& p) {
  const std::string node = p.value("node", "");
  Labels l{{"node", node}};
  const std::string host = host_of(node);
  if (p.value("type", "") == "CA" && host.size() < node.size()) l.emplace_back("device", node.substr(host.size() + 1));
  l.emplace_back("port", std::to_string(p.value("port", 0)));
  if (const auto peer = p.find("peer"); peer != p.end()) {
    l.emplace_back("remote_node", peer->value("node", ""));
    l.emplace_back("remote_port", std::to_string(peer->value("port", 0)));
  }
  return l;
}

void port_counter_families(Writer& w, const nlohmann::json& counters) {
  std::map<std::string, size_t, std::less<>> family_of;
  for (size_t i = 0; i < std::size(kCounterFamilies); ++i) family_of[kCounterFamilies[i].mad] = i;
  const nlohmann::json ports = counters.value("ports", nlohmann::json::array());
  std::vector<Labels> labels;  // per port, once: a fabric has tens of thousands
  std::vector<std::vector<std::pair<size_t, double>>> samples(std::size(kCounterFamilies));  // (port, value)
  for (const auto& p : ports) {
    labels.push_back(port_labels(p));
    const auto values = p.value("counters", nlohmann::json::object());  // items() needs it alive
    for (const auto& [name, v] : values.items()) {
      // The table holds every counter ibburn reads (a test holds it to counters/port_counters.h):
      // a name outside it is a newer ibburn's.
      const auto f = family_of.find(name);
      if (f != family_of.end() && v.is_number())
        samples[f->second].emplace_back(labels.size() - 1, v.get<double>() * kCounterFamilies[f->second].scale);
    }
  }
  for (size_t i = 0; i < std::size(kCounterFamilies); ++i) {
    if (samples[i].empty()) continue;
    w.family(std::string("ibburn_infiniband_") + kCounterFamilies[i].suffix, kCounterFamilies[i].help,
             MetricType::Counter);
    for (const auto& [port, value] : samples[i]) w.sample(labels[port], value);
  }
}

// What the run's verdict counts, the lists `ibburn run` leaves to act on, and how much of the
// fabric the burn loaded: the dashboard's nights.
void outcome_metrics(Writer& w, const RunData& run) {
  const RunVerdict verdict = run_verdict(run);
  // Absent on a clean night, as no sample would say more than that.
  if (!verdict.findings.empty())
    findings_by_kind(w, "ibburn_run_findings", "Findings the run's verdict counts, by kind and severity.",
                     verdict.findings);
  if (run.drain) {
    w.family("ibburn_drain_hosts", "Hosts in drain.txt: what --slurm-drain drains.");
    w.sample({}, static_cast<double>(run.drain->hosts.size()));
    w.family("ibburn_drain_host_listed", "1 per host in drain.txt, with the reason.");
    for (const auto& h : run.drain->hosts) w.sample({{"host", h.host}, {"reason", h.reason}}, 1);
  }
  if (run.cables) {
    w.family("ibburn_cable_action", "1 per cable in cables.csv, with the action it needs.");
    for (const auto& c : *run.cables)
      w.sample({{"a_node", c.a_node},
                {"a_port", c.a_port},
                {"b_node", c.b_node},
                {"b_port", c.b_port},
                {"action", c.action}},
               1);
  }
  // A load, and the sweeps that show where it went.
  if (!run.burn || !run.counters) return;
  // This night alone, as the page's nights count it.
  const Coverage c =
      nights_side_by_side({NightRun{0, "", 0, to_string(verdict.outcome), observations(run)}}, 0, untested_cables(run))
          .coverage;
  w.family("ibburn_coverage_cables",
           "Cables the run saw: the swept ports' cables, and those a partial allocation left untested.");
  w.sample({}, static_cast<double>(c.cables));
  w.family("ibburn_coverage_loaded_cables",
           "Of ibburn_coverage_cables, those that carried a full load: no finding says unloaded, missing, down "
           "or degraded.");
  w.sample({}, static_cast<double>(c.loaded_latest));
}
}  // namespace

std::string prometheus_text(const RunData& run) {
  Writer w;
  const RunOutcome outcome = run_verdict(run).outcome;
  const bool incomplete = outcome == RunOutcome::Incomplete;
  if (incomplete) {
    w.family("ibburn_run_incomplete", "1: the run did not finish; the other metrics are what it measured so far.");
    w.sample({}, 1);
  }
  // A run's (a burn or a job), not a lone check's: one sample per verdict, 1 for the run's, so
  // an alert on verdict="pass" == 0 also fires for a run that never finished.
  if (run.burn || run.began) {
    w.family("ibburn_run_verdict", "The run's verdict (docs/formats.md): 1 for its verdict, 0 for the other two.");
    for (const RunOutcome o : {RunOutcome::Pass, RunOutcome::Fail, RunOutcome::Incomplete})
      w.sample({{"verdict", to_string(o)}}, o == outcome ? 1 : 0);
  }
  if (run.burn) burn_metrics(w, *run.burn, incomplete);
  if (run.topo) findings_by_kind(w, "ibburn_topo_findings", "Topology check findings by kind and severity.", *run.topo);
  if (run.counters) {
    findings_by_kind(w, "ibburn_counters_findings", "Counter findings by kind and severity.", counters_findings(run));
    port_counter_families(w, *run.counters);
  }
  if (!run.hosts.empty()) {
    w.family("ibburn_host_findings", "Host check findings per host and kind.");
    for (const auto& h : run.hosts) {
      std::map<std::string, int> n;
      for (const auto& f : h.findings) ++n[to_string(f.kind)];
      for (const auto& [k, c] : n) w.sample({{"host", h.host}, {"kind", k}}, c);
    }
  }
  outcome_metrics(w, run);
  health_metrics(w, run.health);
  return w.str();
}

}  // namespace ibburn::report
