#include "report/html_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "embedded/page_assets.h"
#include "report/fabric_map.h"
#include "report/history.h"
#include "report/page_sections.h"
#include "report/health_section.h"
#include "report/run_verdict.h"

namespace ibburn::report {

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {
// window.onerror writes into the DOM so a headless --dump-dom shows script errors.
constexpr const char* kErrorTrap = R"(<script>
window.onerror=function(m,s,l){var e=document.getElementById('js-errors');if(e){e.textContent+=m+' at '+l+'\n';}};
</script>)";

std::string findings_table(const std::string& title, const std::vector<Finding>& findings) {
  std::string out = fmt::format("<h3>{} ({} findings)</h3>", html_escape(title), findings.size());
  if (findings.empty()) return out;
  out += "<table><tr><th>kind</th><th>severity</th><th>ports</th><th>message</th></tr>";
  for (const auto& f : findings) {
    std::string ports;
    for (const auto& p : f.ports) ports += (ports.empty() ? "" : ", ") + p.node + "[" + std::to_string(p.port) + "]";
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(to_string(f.kind)),
                       to_string(f.severity), html_escape(ports), html_escape(f.message));
  }
  return out + "</table>";
}

// The cables the burn's localisation named, with their evidence.
std::string suspects_table(const burn::BurnSummary& burn) {
  if (!burn.suspects || burn.suspects->empty()) return "";
  std::string out = fmt::format(
      "<h2>Suspect cables ({})</h2><table><tr><th>cable</th><th>confidence</th>"
      "<th>slow flows</th><th>healthy flows</th><th>same evidence fits</th></tr>",
      burn.suspects->size());
  for (const auto& x : *burn.suspects) {
    std::string tied;
    for (const auto& t : x.tied_with) tied += (tied.empty() ? "" : ", ") + t;
    out += fmt::format("<tr><td>{}</td><td>{:.0f}%</td><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(x.cable),
                       100 * x.confidence, x.slow_flows, x.healthy_flows, html_escape(tied));
  }
  return out + "</table>";
}

std::string heat_map(const burn::BurnSummary& burn) {
  double best = 0;
  for (const auto& e : burn.endpoints) best = std::max({best, e.min_tx_gbps.value_or(0), e.min_rx_gbps.value_or(0)});
  std::string out =
      fmt::format("<h2>Per-endpoint bandwidth ({} endpoints)</h2><div class=\"heat\">", burn.endpoints.size());
  for (const auto& e : burn.endpoints) {
    const double g = std::min(e.min_tx_gbps.value_or(best), e.min_rx_gbps.value_or(best));
    // Green at the best endpoint's rate, shading to red as the slowest direction drops.
    const double f = best > 0 ? std::clamp(g / best, 0.0, 1.0) : 1.0;
    const std::string col =
        e.verdict == burn::Verdict::Failed ? "#202124" : fmt::format("hsl({:.0f},70%,45%)", 120 * f);
    out += fmt::format(R"(<div style="background:{}" title="{} {}: {} min {:.1f} Gb/s"></div>)", col,
                       html_escape(e.host.value_or("")), html_escape(e.endpoint.value_or("")), to_string(e.verdict), g);
  }
  return out + "</div>";
}

bool is_data_counter(const std::string& name) {
  return name.find("Data") != std::string::npos || name.find("Pkts") != std::string::npos || name == "PortXmitWait";
}

std::string counter_table(const nlohmann::json& counters) {
  std::string rows;
  size_t n = 0;
  for (const auto& p : counters.value("ports", nlohmann::json::array())) {
    const auto values = p.value("counters", nlohmann::json::object());
    for (const auto& [name, v] : values.items())
      if (!is_data_counter(name) && v.is_number() && v.get<double>() > 0 && n++ < 500)
        rows += fmt::format("<tr><td>{}[{}]</td><td>{}</td><td>{}</td></tr>", html_escape(p.value("node", "")),
                            p.value("port", 0), html_escape(name), v.dump());
  }
  std::string out = fmt::format("<h2>Per-cable error counters ({} non-zero)</h2>", n);
  if (n) out += "<table><tr><th>port</th><th>counter</th><th>value / rise</th></tr>" + rows + "</table>";
  if (n > 500) out += fmt::format("<p>... and {} more</p>", n - 500);
  return out;
}

// `ibburn run`'s steps and what changed since the previous run in the history.
std::string job_section(const burn::JobRecord& job) {
  std::string out = fmt::format("<h2>Job ({})</h2><table><tr><th>step</th><th>seconds</th><th>outcome</th></tr>",
                                html_escape(job.outcome));
  for (const auto& st : job.steps)
    out += fmt::format("<tr><td>{}</td><td>{:.1f}</td><td>{}</td></tr>", html_escape(st.name), st.seconds,
                       html_escape(st.outcome));
  out += "</table>";
  if (!job.changes) return out;
  const auto& c = *job.changes;
  out += fmt::format("<h2>Since run {}: {} new, {} recovered, {} still failing</h2><table>", c.previous_run,
                     c.new_findings.size(), c.recovered.size(), c.still_failing.size());
  for (const auto& [label, list] :
       {std::pair{"new", &c.new_findings}, {"recovered", &c.recovered}, {"still failing", &c.still_failing}})
    for (const auto& x : *list) out += fmt::format("<tr><td>{}</td><td>{}</td></tr>", label, html_escape(x));
  return out + "</table>";
}

}  // namespace

std::string html_report(const RunData& run, const topo::Fabric* fabric, const std::string& title,
                        const Nights* nights) {
  const RunVerdict verdict = run_verdict(run);
  const char* shown = headline(verdict.outcome);

  std::string out = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
                    "</title><style>" + embedded::kPageStyle + "</style>" + kErrorTrap + "</head><body>";
  out += fmt::format(
      R"(<pre id="js-errors" style="color:#d93025"></pre><h1>{}</h1><div class="verdict {}" id="verdict">{}</div>)",
      html_escape(title), to_string(verdict.outcome), shown);
  if (verdict.outcome == RunOutcome::Incomplete)
    out += fmt::format(R"(<p id="incomplete">The run did not finish ({}); below is what it measured.</p>)",
                       html_escape(verdict.why_incomplete));
  // The counts of the run's last line ("run: FAIL: N finding(s), M host(s) in drain.txt").
  out += fmt::format(
      R"(<p>burn: {}; findings: <span id="findings-count">{}</span>{}</p>)",
      run.burn ? (run.burn->pass ? "pass" : "fail") : "not run", verdict.findings.size(),
      run.drain ? fmt::format(R"(; hosts in drain.txt: <span id="drain-count">{}</span>)", run.drain->hosts.size())
                : "");
  out += actions_section(run, verdict.findings);
  if (fabric) {
    std::map<std::string, std::string> labels;
    for (const auto& c : run.cables.value_or(std::vector<CableRow>{}))
      if (!c.label.empty())
        labels[cable_name({c.a_node, std::atoi(c.a_port.c_str())}, {c.b_node, std::atoi(c.b_port.c_str())})] = c.label;
    out += fabric_section(fabric_picture(*fabric, port_evidence(run), missing_cables(run), labels));
  }
  out += health_section_html(run.health);  // firmware and temperatures, after the fabric
  out += bandwidth_section(stage_bandwidth(run.stages, run.endpoints));
  if (nights) out += nights_section(*nights);
  if (run.burn && run.burn->job) out += job_section(*run.burn->job);
  if (run.burn) out += suspects_table(*run.burn) + heat_map(*run.burn);
  if (run.counters) out += counter_table(*run.counters);
  out += "<h2>Findings</h2>";
  if (run.burn && run.burn->findings) {
    out += findings_table("the job (topo, counters, host, burn)", verdict.findings);  // the host preflight's too
  } else {
    if (run.topo) out += findings_table("topo check", *run.topo);
    if (run.counters) out += findings_table("counters", counters_findings(run));
    for (const auto& h : run.hosts) out += findings_table("host " + h.host, h.findings);
    if (run.burn)
      for (const auto& h : run.burn->host_checks)
        out += findings_table("burn preflight, host " + h.host + (h.refused ? " (refused by the burn)" : ""),
                              h.check.findings);
  }
  return out + "<script>" + embedded::kPageScript + "</script></body></html>\n";
}

}  // namespace ibburn::report
