#pragma once
// summary.json as one typed document: what the burn writes (burn/verdict.cpp builds it, the
// coordinator adds the host checks, a session observer adds the localisation) and what `report`,
// `history`, Prometheus and `plan localize` read back. Reading is strict: a missing or
// mistyped required field is an InputError naming the file and the field, never a default,
// so a field renamed on one side fails on the other. Optional fields are std::optional (or
// empty lists) and say when they are absent. docs/burn.md describes the fields.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/control_protocol.h"
#include "burn/port_counters.h"
#include "common/finding.h"
#include "common/finding_details.h"
#include "common/json_fields.h"

namespace ibburn::burn {

enum class Verdict { Pass, Slow, Failed, Suspect, Unjudged, Interrupted };
const char* to_string(Verdict v);
Verdict verdict_from_string(const std::string& s);  // throws std::invalid_argument

// One direction of one flow of one stage, judged (burn/verdict.h judges them).
struct DirectionVerdict {
  int stage = 0;
  std::uint32_t flow = 0;
  int from = 0;
  int to = 0;
  double gbps = 0;
  double expected_gbps = 0;
  Verdict verdict = Verdict::Unjudged;
  std::string reason;  // "" (absent in JSON) when it passed
};

// One endpoint (rank) over the whole run.
struct EndpointRecord {
  int rank = 0;
  Verdict verdict = Verdict::Unjudged;
  int directions = 0;  // judged directions it took part in
  int bad = 0;         // of those, slow or failed
  // Absent when the rank's endpoint was never known (it died before hello).
  std::optional<std::string> host, endpoint;
  std::optional<double> min_tx_gbps, min_rx_gbps;  // absent: it never sent / received
  std::optional<std::string> reason;
  std::vector<std::string> explained_by;   // cables the localisation blames for its bad flows
  std::optional<std::uint64_t> port_guid;  // its HCA port, once named on the fabric ("0x..." in JSON)
  // Its port's kernel counters' rise during the stages (burn/port_counters.h); empty: none read.
  PortCounterValues port_counters{};
};

struct LostRankRecord {
  int rank = 0;
  std::string reason;
  std::optional<std::string> host, endpoint;
};

// One host's preflight as the burn saw it: the host's answer, and whether its ranks were
// refused (not ok, and no --force).
struct HostCheckRecord {
  std::string host;
  bool refused = false;
  HostCheckAnswer check;
};

// A cable the localisation names, "node[port]" at both ends.
struct SuspectRecord {
  std::string cable;
  std::string from, to;
  double confidence = 0;
  int slow_flows = 0;
  int healthy_flows = 0;
  std::vector<std::string> tied_with;  // cables the same evidence fits
  bool operator==(const SuspectRecord&) const = default;
};

// One step of `ibburn run` as it went.
struct JobStep {
  std::string name;  // topo, counters, host, plan, burn, verdict
  double seconds = 0;
  std::string outcome;  // "ok", "findings", "skipped: <why>", "stopped"
};

// What changed since the previous run recorded in the same history: "subject: kind" lines.
struct JobChanges {
  long long previous_run = 0;  // its id in the history
  std::vector<std::string> new_findings, recovered, still_failing;
};

// A job that held only some of the fabric's hosts (run/job_scope.h): what it judged.
struct JobAllocation {
  std::string source;                // "slurm" ($SLURM_JOB_NODELIST), "list" (--allocation), "ranks"
  std::vector<std::string> hosts;    // the hosts in the job, sorted
  std::vector<std::string> outside;  // the fabric's other hosts, sorted: nothing is said of them
};

// `ibburn run`'s part: the job beyond the burn. Absent for a bare `ibburn burn`.
struct JobRecord {
  std::string outcome;  // to_string(RunState): "running", "complete", "interrupted", "stopped"
  std::vector<JobStep> steps;
  std::optional<JobChanges> changes;
  std::optional<JobAllocation> allocation;  // absent when the job held every host
};

struct BurnSummary {
  std::string transport;
  bool complete = false;     // every stage ran to its end
  bool interrupted = false;  // Ctrl-C / SIGTERM
  int stages_planned = 0;
  int stages_run = 0;
  double threshold = 0.9;
  double expect_gbps = 0;
  bool pass = true;                   // no finding; "verdict" is run_outcome()
  std::map<std::string, int> counts;  // flow directions per verdict
  std::vector<LostRankRecord> lost_ranks;
  std::vector<EndpointRecord> endpoints;
  std::vector<DirectionVerdict> flows;
  std::vector<HostCheckRecord> host_checks;
  // Present only when the burn had a fabric to localise on (`--fabric`).
  std::optional<std::vector<SuspectRecord>> suspects;
  std::vector<std::string> localization_notes;
  // `ibburn run`: every finding of the job (topo, counters, host, burn) worst first, and the
  // job's steps; then "verdict" is the whole job's.
  std::optional<std::vector<Finding>> findings;
  std::optional<JobRecord> job;
  // `ibburn run`: what each finding costs in training time and the go/no-go (price/pricing.h,
  // docs/price.md), as price::to_json writes it.
  std::optional<nlohmann::json> price;
};

// Where the run stands, as summary.json's "state" says: running from the first summary (written
// before stage 1) until the last, so a run killed on the way never reads as finished; stopped is
// a job that ended before any traffic (its topo findings are its verdict).
enum class RunState { Running, Complete, Interrupted, Stopped };
const char* to_string(RunState s);
// From `complete`, `interrupted` and the job's outcome "stopped".
RunState run_state(const BurnSummary& s);

// The one verdict summary.json's "verdict", the page, Prometheus, the history and `report`'s exit
// code give: incomplete whenever the run was not measured to its end (still running,
// interrupted, or a rank lost on the way: its flows and its peers' were never measured), so
// a script reading `.verdict` never takes such a run for a pass; else pass (no finding) or fail.
enum class RunOutcome { Pass, Fail, Incomplete };
const char* to_string(RunOutcome o);  // "pass", "fail", "incomplete"
const char* headline(RunOutcome o);   // "PASS", "FAIL", "INCOMPLETE": the terminal's and the page's word
RunOutcome run_outcome(const BurnSummary& s);

nlohmann::json to_json(const DirectionVerdict& r);
nlohmann::json to_json(const EndpointRecord& r);
// Strict readers of one flow's, one endpoint's and one suspect cable's record, in summary.json and
// as findings' details.
DirectionVerdict direction_verdict_from(const JsonFields& f);
EndpointRecord endpoint_record_from(const JsonFields& f);
SuspectRecord suspect_record_from(const JsonFields& f);
nlohmann::json to_json(const SuspectRecord& r);
nlohmann::json to_json(const BurnSummary& s);

// The document's schema_version (docs/burn.md, "summary.json"). A summary without one predates
// it and holds the same fields: it is read as version 1. Any other version is refused (exit 2).
constexpr int kSummarySchemaVersion = 1;
// `source` names the document in errors ("out/summary.json").
BurnSummary summary_from_json(const nlohmann::json& j, const std::string& source);
BurnSummary load_summary(const std::string& path);
// Atomically (a reader never sees half a file).
void write_summary(const std::string& path, const BurnSummary& s);

}  // namespace ibburn::burn

// The burn's findings carry their record as details: an endpoint's (slow, failed, suspect or
// lost), a flow's (slow or failed).
namespace ibburn {

struct EndpointFindingDetails {
  using Details = burn::EndpointRecord;
  static Details read(const JsonFields& r) { return burn::endpoint_record_from(r); }
};
template <>
struct FindingDetails<FindingKind::SlowEndpoint> : EndpointFindingDetails {};
template <>
struct FindingDetails<FindingKind::FailedEndpoint> : EndpointFindingDetails {};
template <>
struct FindingDetails<FindingKind::SuspectEndpoint> : EndpointFindingDetails {};
template <>
struct FindingDetails<FindingKind::LostRank> : EndpointFindingDetails {};

struct FlowFindingDetails {
  using Details = burn::DirectionVerdict;
  static Details read(const JsonFields& r) { return burn::direction_verdict_from(r); }
};
template <>
struct FindingDetails<FindingKind::SlowFlow> : FlowFindingDetails {};
template <>
struct FindingDetails<FindingKind::FailedFlow> : FlowFindingDetails {};

}  // namespace ibburn
