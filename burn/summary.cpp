#include "burn/summary.h"

#include <algorithm>

#include <stdexcept>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "common/json_fields.h"
#include "common/json_parse.h"

namespace ibburn::burn {

using nlohmann::json;

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Slow: return "slow";
    case Verdict::Failed: return "failed";
    case Verdict::Suspect: return "suspect";
    case Verdict::Unjudged: return "unjudged";
    case Verdict::Interrupted: return "interrupted";
  }
  return "?";
}

Verdict verdict_from_string(const std::string& s) {
  for (Verdict v :
       {Verdict::Pass, Verdict::Slow, Verdict::Failed, Verdict::Suspect, Verdict::Unjudged, Verdict::Interrupted})
    if (s == to_string(v)) return v;
  throw std::invalid_argument("unknown verdict \"" + s + "\"");
}

const char* to_string(RunState s) {
  switch (s) {
    case RunState::Running: return "running";
    case RunState::Complete: return "complete";
    case RunState::Interrupted: return "interrupted";
    case RunState::Stopped: return "stopped";
  }
  return "?";
}

RunState run_state(const BurnSummary& s) {
  if (s.job && s.job->outcome == to_string(RunState::Stopped)) return RunState::Stopped;
  if (s.interrupted) return RunState::Interrupted;
  return s.complete ? RunState::Complete : RunState::Running;
}

const char* to_string(RunOutcome o) {
  switch (o) {
    case RunOutcome::Pass: return "pass";
    case RunOutcome::Fail: return "fail";
    case RunOutcome::Incomplete: return "incomplete";
  }
  return "?";
}

const char* headline(RunOutcome o) {
  switch (o) {
    case RunOutcome::Pass: return "PASS";
    case RunOutcome::Fail: return "FAIL";
    case RunOutcome::Incomplete: return "INCOMPLETE";
  }
  return "?";
}

RunOutcome run_outcome(const BurnSummary& s) {
  const RunState state = run_state(s);
  // A rank its host's preflight refused was judged (the host fails), not lost on the way.
  const auto refused = [&](const LostRankRecord& l) {
    return l.host && std::any_of(s.host_checks.begin(), s.host_checks.end(),
                                 [&](const HostCheckRecord& h) { return h.refused && h.host == *l.host; });
  };
  const bool lost = std::any_of(s.lost_ranks.begin(), s.lost_ranks.end(), [&](const auto& l) { return !refused(l); });
  if (state == RunState::Running || state == RunState::Interrupted || lost) return RunOutcome::Incomplete;
  return s.pass ? RunOutcome::Pass : RunOutcome::Fail;
}

namespace {

template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

// A field of the document, read strictly: errors name the file and the field.
JsonFields document(const json& j, const std::string& source) {
  return JsonFields(j, [source](const std::string& field, const std::string& what) {
    throw InputError(source, 0, field.empty() ? what : field + ": " + what);
  });
}

Verdict read_verdict(const JsonFields& f, const char* key) {
  try {
    return verdict_from_string(f.get<std::string>(key));
  } catch (const std::invalid_argument& e) {
    f.fail(key, e.what());
  }
}

}  // namespace

SuspectRecord suspect_record_from(const JsonFields& f) {
  return {f.get<std::string>("cable"),
          f.get<std::string>("from"),
          f.get<std::string>("to"),
          f.get<double>("confidence"),
          f.get<int>("slow_flows"),
          f.get<int>("healthy_flows"),
          f.get<std::vector<std::string>>("tied_with")};
}

EndpointRecord endpoint_record_from(const JsonFields& f) {
  EndpointRecord e;
  e.rank = f.get<int>("rank");
  e.verdict = read_verdict(f, "verdict");
  e.directions = f.get<int>("directions");
  e.bad = f.get<int>("bad");
  e.host = f.optional<std::string>("host");
  e.endpoint = f.optional<std::string>("endpoint");
  e.min_tx_gbps = f.optional<double>("min_tx_gbps");
  e.min_rx_gbps = f.optional<double>("min_rx_gbps");
  e.reason = f.optional<std::string>("reason");
  e.explained_by = f.optional<std::vector<std::string>>("explained_by").value_or(std::vector<std::string>{});
  if (const auto g = f.optional<std::string>("port_guid")) {
    const auto parsed = Guid::parse(*g);
    if (!parsed) f.fail("port_guid", "not a GUID: \"" + *g + "\"");
    e.port_guid = parsed->value;
  }
  e.port_counters = f.optional<PortCounterValues>("port_counters").value_or(PortCounterValues{});
  return e;
}

DirectionVerdict direction_verdict_from(const JsonFields& f) {
  return {f.get<int>("stage"),        f.get<std::uint32_t>("flow"),
          f.get<int>("from"),         f.get<int>("to"),
          f.get<double>("gbps"),      f.get<double>("expected_gbps"),
          read_verdict(f, "verdict"), f.optional<std::string>("reason").value_or("")};
}

json to_json(const DirectionVerdict& r) {
  json j{{"stage", r.stage},
         {"flow", r.flow},
         {"from", r.from},
         {"to", r.to},
         {"gbps", r.gbps},
         {"expected_gbps", r.expected_gbps},
         {"verdict", to_string(r.verdict)}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  return j;
}

json to_json(const EndpointRecord& r) {
  json j{{"rank", r.rank}, {"verdict", to_string(r.verdict)}, {"directions", r.directions}, {"bad", r.bad}};
  put(j, "host", r.host);
  put(j, "endpoint", r.endpoint);
  put(j, "min_tx_gbps", r.min_tx_gbps);
  put(j, "min_rx_gbps", r.min_rx_gbps);
  put(j, "reason", r.reason);
  if (!r.explained_by.empty()) j["explained_by"] = r.explained_by;
  if (r.port_guid) j["port_guid"] = Guid{*r.port_guid}.text();
  if (!r.port_counters.empty()) j["port_counters"] = r.port_counters;
  return j;
}

json to_json(const SuspectRecord& r) {
  return {{"cable", r.cable},
          {"from", r.from},
          {"to", r.to},
          {"confidence", r.confidence},
          {"slow_flows", r.slow_flows},
          {"healthy_flows", r.healthy_flows},
          {"tied_with", r.tied_with}};
}

json to_json(const BurnSummary& s) {
  json lost = json::array(), eps = json::array(), flows = json::array(), hosts = json::array();
  for (const auto& l : s.lost_ranks) {
    json j{{"rank", l.rank}, {"reason", l.reason}};
    put(j, "host", l.host);
    put(j, "endpoint", l.endpoint);
    lost.push_back(std::move(j));
  }
  for (const auto& e : s.endpoints) eps.push_back(to_json(e));
  for (const auto& f : s.flows) flows.push_back(to_json(f));
  for (const auto& h : s.host_checks) {
    json j = h.check;
    j["host"] = h.host;
    j["refused"] = h.refused;
    hosts.push_back(std::move(j));
  }
  json j{{"schema_version", kSummarySchemaVersion},
         {"transport", s.transport},
         {"state", to_string(run_state(s))},
         {"complete", s.complete},
         {"interrupted", s.interrupted},
         {"stages_planned", s.stages_planned},
         {"stages_run", s.stages_run},
         {"threshold", s.threshold},
         {"expect_gbps", s.expect_gbps},
         {"verdict", to_string(run_outcome(s))},
         {"counts", s.counts},
         {"lost_ranks", lost},
         {"endpoints", eps},
         {"flows", flows},
         {"host_checks", hosts}};
  if (s.suspects) {
    j["suspects"] = json::array();
    for (const auto& x : *s.suspects) j["suspects"].push_back(to_json(x));
    j["localization_notes"] = s.localization_notes;
  }
  if (s.findings) j["findings"] = findings_to_json(*s.findings)["findings"];
  if (s.job) {
    json steps = json::array();
    for (const auto& st : s.job->steps)
      steps.push_back({{"name", st.name}, {"seconds", st.seconds}, {"outcome", st.outcome}});
    j["job"] = {{"outcome", s.job->outcome}, {"steps", steps}};
    if (const auto& c = s.job->changes)
      j["job"]["changes"] = {{"previous_run", c->previous_run},
                             {"new", c->new_findings},
                             {"recovered", c->recovered},
                             {"still_failing", c->still_failing}};
    if (const auto& a = s.job->allocation)
      j["job"]["allocation"] = {{"source", a->source}, {"hosts", a->hosts}, {"outside", a->outside}};
  }
  if (s.price) j["price"] = *s.price;
  return j;
}

BurnSummary summary_from_json(const json& j, const std::string& source) {
  const JsonFields top = document(j, source);
  if (const int version = top.optional<int>("schema_version").value_or(1); version != kSummarySchemaVersion)
    top.fail("schema_version",
             fmt::format("summary schema version {}, this ibburn reads version {}", version, kSummarySchemaVersion));
  BurnSummary s;
  s.transport = top.get<std::string>("transport");
  s.complete = top.get<bool>("complete");
  s.interrupted = top.get<bool>("interrupted");
  s.stages_planned = top.get<int>("stages_planned");
  s.stages_run = top.get<int>("stages_run");
  s.threshold = top.get<double>("threshold");
  s.expect_gbps = top.get<double>("expect_gbps");
  const std::string verdict = top.get<std::string>("verdict");
  if (verdict != "pass" && verdict != "fail" && verdict != "incomplete")
    top.fail("verdict", "expected \"pass\", \"fail\" or \"incomplete\", got \"" + verdict + "\"");
  s.pass = verdict == "pass";
  s.counts = top.get<std::map<std::string, int>>("counts");
  for (const auto& f : top.objects("lost_ranks"))
    s.lost_ranks.push_back({f.get<int>("rank"), f.get<std::string>("reason"), f.optional<std::string>("host"),
                            f.optional<std::string>("endpoint")});
  for (const auto& f : top.objects("endpoints")) s.endpoints.push_back(endpoint_record_from(f));
  for (const auto& f : top.objects("flows")) s.flows.push_back(direction_verdict_from(f));
  for (const auto& f : top.objects("host_checks"))
    s.host_checks.push_back({f.get<std::string>("host"), f.get<bool>("refused"), read_host_check(f)});
  if (j.contains("suspects")) {
    s.suspects.emplace();
    for (const auto& f : top.objects("suspects")) s.suspects->push_back(suspect_record_from(f));
    s.localization_notes = top.get<std::vector<std::string>>("localization_notes");
  }
  if (j.contains("findings")) {
    s.findings.emplace();
    const json& a = top.array("findings");
    for (std::size_t i = 0; i < a.size(); ++i) {
      try {
        s.findings->push_back(finding_from_json(a[i]));
      } catch (const std::exception& e) {
        top.fail(fmt::format("findings[{}]", i), e.what());
      }
    }
  }
  if (j.contains("job")) {
    const JsonFields job = top.object("job");
    JobRecord r;
    r.outcome = job.get<std::string>("outcome");
    for (const auto& f : job.objects("steps"))
      r.steps.push_back({f.get<std::string>("name"), f.get<double>("seconds"), f.get<std::string>("outcome")});
    if (job.has("changes")) {
      const JsonFields c = job.object("changes");
      r.changes =
          JobChanges{c.get<long long>("previous_run"), c.get<std::vector<std::string>>("new"),
                     c.get<std::vector<std::string>>("recovered"), c.get<std::vector<std::string>>("still_failing")};
    }
    if (job.has("allocation")) {
      const JsonFields a = job.object("allocation");
      r.allocation = JobAllocation{a.get<std::string>("source"), a.get<std::vector<std::string>>("hosts"),
                                   a.get<std::vector<std::string>>("outside")};
    }
    s.job = std::move(r);
  }
  if (j.contains("price")) {
    top.object("price");  // an object, or the file is refused
    s.price = j["price"];
  }
  // Derived, so it cannot be stored apart from what it is derived from; a reader that goes by
  // "state" alone must not see a different run than one that reads the flags.
  const std::string state = top.get<std::string>("state");
  if (state != to_string(run_state(s)))
    top.fail("state", fmt::format("\"{}\" disagrees with complete, interrupted and job.outcome (\"{}\")", state,
                                  to_string(run_state(s))));
  return s;
}

BurnSummary load_summary(const std::string& path) { return summary_from_json(parse_json(read_file(path), path), path); }

void write_summary(const std::string& path, const BurnSummary& s) {
  write_file_atomic(path, to_json(s).dump(2) + "\n");
}

}  // namespace ibburn::burn
