#include "run/verdict.h"

#include <map>

#include "common/exit_codes.h"
#include "localization/endpoint_names.h"
#include "localization/suspect_cable_details.h"
#include "report/history.h"
#include "run/job_outputs.h"
#include "run/price_step.h"

namespace ibburn::run {

void corroborate(std::vector<Finding>& burn_findings, const std::vector<Finding>& counter_findings) {
  std::map<std::string, const Finding*> counted;
  for (const auto& f : counter_findings)
    if (f.kind == FindingKind::ErrorsUnderLoad && f.ports.size() == 2)
      counted.emplace(report::cable_name(f.ports[0], f.ports[1]), &f);
  for (auto& f : burn_findings) {
    if (f.kind != FindingKind::SuspectCable || f.ports.size() != 2) continue;
    auto details = details_of<FindingKind::SuspectCable>(f);
    std::vector<std::pair<PortRef, PortRef>> candidates{{f.ports[0], f.ports[1]}};
    for (const std::string& text : details.tied_with()) {
      const auto arrow = text.find(" -> ");
      if (arrow != std::string::npos)
        candidates.emplace_back(report::port_from_text(text.substr(0, arrow)),
                                report::port_from_text(text.substr(arrow + 4)));
    }
    for (const auto& [a, b] : candidates) {
      auto it = counted.find(report::cable_name(a, b));
      if (it == counted.end()) continue;
      f.severity = Severity::Error;
      f.ports = {a, b};
      f.message +=
          "; of these, " + report::cable_name(a, b) + " had its counters rise under load: " + it->second->message;
      details.errors_under_load = details_of<FindingKind::ErrorsUnderLoad>(*it->second);
      f.details = details;
      break;
    }
  }
}

void judge(JobState& job, burn::Summary& s, const std::vector<burn::EndpointInfo>& eps) {
  if (job.localizer) {
    if (job.by_counters) job.localizer->set_named_elsewhere(job.by_counters->named());
    job.localizer->explain(s, eps);
  } else {
    localization::name_endpoint_findings(s.findings, eps);  // no fabric: the ranks' ports name them
  }
  corroborate(s.findings, job.counter_findings);
  std::vector<Finding> all = job.topo_findings;
  all.insert(all.end(), job.health.findings().begin(), job.health.findings().end());
  if (job.by_counters)
    for (auto& f : job.by_counters->findings()) all.push_back(std::move(f));
  for (auto& f : job.counter_evidence()) all.push_back(std::move(f));
  if (s.doc.complete && !job.expected_total.empty()) {
    const auto& model = *job.model;
    const auto untested =
        job.scope ? job.scope->untested_edges(model, job.expected_total) : std::set<routing::EdgeId>{};
    for (auto& f : unused_directions(model, job.expected_total, untested)) all.push_back(std::move(f));
    if (auto f = job.scope ? job.scope->untested(model, job.expected_total) : std::nullopt)
      all.push_back(std::move(*f));
  }
  all.insert(all.end(), s.findings.begin(), s.findings.end());
  if (job.scope) all = job.scope->within(std::move(all));
  all = group_systemic_causes(std::move(all), job.scopes);
  if (job.no_subnet)
    job.price_step = burn::JobStep{"price", 0, "skipped: no fabric to price on (" + *job.no_subnet + ")"};
  else if (s.doc.complete || s.doc.interrupted)
    price_findings(job, s.doc, all);
  sort_worst_first(all);
  s.doc.findings = all;
  burn::JobRecord record;
  record.outcome = s.doc.interrupted ? "interrupted" : s.doc.complete ? "complete" : "running";
  record.steps = job.steps;
  if (job.scope) record.allocation = job.scope->record();
  s.doc.job = record;
  write_lists(job, s.doc);
  s.findings = *s.doc.findings;
  s.doc.pass = exit_code_for(s.findings) == kExitOk;
}

}  // namespace ibburn::run
