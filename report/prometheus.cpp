#include "report/prometheus.h"

#include <map>

#include <fmt/format.h>

#include "report/health_section.h"
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
  w.family("ibburn_burn_endpoint_min_gbps", "Slowest direction an endpoint sent (tx) or received (rx), Gb/s.");
  for (const auto& e : s.endpoints)
    for (auto [dir, gbps] : {std::pair{"tx", e.min_tx_gbps}, std::pair{"rx", e.min_rx_gbps}})
      if (gbps)
        w.sample({{"host", e.host.value_or("")}, {"endpoint", e.endpoint.value_or("")}, {"direction", dir}}, *gbps);
  auto who = [&](int rank) {
    auto it = rank_name.find(rank);
    return it == rank_name.end() ? fmt::format("rank{}", rank) : it->second.first + ":" + it->second.second;
  };
  w.family("ibburn_burn_flow_gbps", "Rate of one direction of a flow, Gb/s (receiver's count).");
  for (const auto& f : s.flows)
    w.sample({{"stage", std::to_string(f.stage)},
              {"flow", std::to_string(f.flow)},
              {"from", who(f.from)},
              {"to", who(f.to)},
              {"verdict", to_string(f.verdict)}},
             f.gbps);
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
    w.family("ibburn_counters_port_counter", "PerfMgt counter of a port (value read, or rise since the baseline).");
    for (const auto& p : run.counters->value("ports", nlohmann::json::array())) {
      const auto values = p.value("counters", nlohmann::json::object());  // items() needs it alive
      for (const auto& [name, v] : values.items())
        if (v.is_number())
          w.sample({{"node", p.value("node", "")}, {"port", std::to_string(p.value("port", 0))}, {"counter", name}},
                   v.get<double>());
    }
  }
  if (!run.hosts.empty()) {
    w.family("ibburn_host_findings", "Host check findings per host and kind.");
    for (const auto& h : run.hosts) {
      std::map<std::string, int> n;
      for (const auto& f : h.findings) ++n[to_string(f.kind)];
      for (const auto& [k, c] : n) w.sample({{"host", h.host}, {"kind", k}}, c);
    }
  }
  health_metrics(w, run.health);
  return w.str();
}

}  // namespace ibburn::report
