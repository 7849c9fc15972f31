#pragma once
// Memory of past runs in SQLite: every subject (host, hca, switch, cable) a run saw, with its
// findings, so `ibburn history` can say which ones keep failing and which never do (golden),
// and each run's verdict: a run that did not finish makes nothing golden.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "report/run_data.h"

struct sqlite3;

namespace ibburn::report {

// One subject seen by one source of a run; kind empty = seen and fine.
struct Observation {
  std::string subject_kind;  // host | hca | switch | cable
  std::string subject;       // "gpu001", "gpu001 mlx5_0", "leaf1[3] - spine2[7]"
  std::string source;        // burn | topo | counters | host
  std::string kind;          // finding kind or burn verdict; empty when fine
  std::string severity;
  std::string message;
};

// "a[p] - b[q]" with the ends in name order: how history (and `ibburn run`'s cable list) names
// a cable.
std::string cable_name(const PortRef& a, const PortRef& b);
// "node[port]" as a PortRef (port 0 without brackets).
PortRef port_from_text(const std::string& name);

// Pure: what a run says about each subject. Finding ports name nodes; a node named
// "<host> mlx..." is an HCA of <host> (and counts against the host), any other node a switch;
// a finding naming two ports is also about the cable between them. A job that held only some
// hosts saw nothing of the others, nor of the cables and switches it names `untested`.
std::vector<Observation> observations(const RunData& run);

struct SubjectScore {
  std::string subject_kind, subject;
  int failed_runs = 0;  // runs (of the last N) with at least one finding about it
  int findings = 0;
  std::string last_kind;  // kind of its latest finding
};

struct HistoryReport {
  int runs = 0;                       // runs considered (<= N)
  int incomplete = 0;                 // of those, runs that did not finish (run_verdict.h)
  std::vector<SubjectScore> failing;  // worst first: failed runs, then findings, then name
  std::vector<SubjectScore> golden;   // seen in the last N runs and never with a finding
};

// "kind subject: finding" lines of two runs' observations: findings only now (new), only
// before (recovered), in both (still failing). Pure.
burn::JobChanges compare_runs(long long previous_run, const std::vector<Observation>& previous,
                              const std::vector<Observation>& current);

struct NightRun;  // report/history_nights.h

class History {
 public:
  explicit History(const std::string& db_path);  // creates the schema when absent
  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  // Records one run atomically (one transaction); returns its id.
  long long record(const std::string& label, long long unix_time, const RunData& run);
  HistoryReport rank(int last_n) const;
  // What changed between the run recorded before `run_id` and `run_id` (compare_runs);
  // nullopt when `run_id` is the first.
  std::optional<burn::JobChanges> changes_since_previous(long long run_id) const;
  // The last `n` runs, oldest first, each with what it saw (the page's nights side by side).
  std::vector<NightRun> last_runs(int n) const;
  // Cables ("a[p] - b[q]") with a finding in run `run_id`.
  std::set<std::string> failed_cables(long long run_id) const;

 private:
  std::vector<Observation> observations_of(long long run_id) const;

  ::sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace ibburn::report

namespace ibburn::report {
// Human table: failing subjects per kind (at most max_rows each, 0 = all), then the golden set
// as counts per kind, or with list_golden its names, one a line (a fabric has thousands).
std::string format_history(const HistoryReport& r, size_t max_rows, bool list_golden = false);
}  // namespace ibburn::report
