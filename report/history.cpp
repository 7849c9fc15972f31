#include "report/history.h"

#include <map>
#include <set>
#include <algorithm>

#include <sqlite3.h>

#include "common/error.h"
#include "common/finding_details.h"
#include "report/history_nights.h"
#include "report/run_verdict.h"

namespace ibburn::report {

namespace {
std::string port_name(const PortRef& p) { return p.node + "[" + std::to_string(p.port) + "]"; }
}  // namespace

std::string cable_name(const PortRef& a, const PortRef& b) {
  std::string x = port_name(a), y = port_name(b);
  if (y < x) std::swap(x, y);
  return x + " - " + y;
}

PortRef port_from_text(const std::string& name) {
  const auto open = name.rfind('[');
  return open == std::string::npos ? PortRef{name, 0}
                                   : PortRef{name.substr(0, open), std::atoi(name.c_str() + open + 1)};
}

namespace {

bool is_hca(const std::string& node) {
  const auto sp = node.find(' ');
  return sp != std::string::npos && node.compare(sp + 1, 3, "mlx") == 0;
}

// The node and (for HCAs) host observations for one port.
void node_obs(std::vector<Observation>& out, const std::string& node, Observation o) {
  if (is_hca(node)) {
    o.subject_kind = "hca", o.subject = node, out.push_back(o);
    o.subject_kind = "host", o.subject = host_of(node), out.push_back(o);
  } else {
    o.subject_kind = "switch", o.subject = node, out.push_back(o);
  }
}

void finding_obs(std::vector<Observation>& out, const std::string& source, const Finding& f) {
  Observation o{"", "", source, to_string(f.kind), to_string(f.severity), f.message};
  std::set<std::string> nodes;
  for (const auto& p : f.ports)
    if (nodes.insert(p.node).second) node_obs(out, p.node, o);
  if (f.ports.size() == 2)
    out.push_back({"cable", cable_name(f.ports[0], f.ports[1]), source, to_string(f.kind), o.severity, f.message});
}

// A job that held only some hosts (summary.json's job.allocation) did not see the rest: the
// counters' sweep still read their ports, but "seen and fine" would make them golden. What
// the job named as untested is not seen either.
void drop_unseen(std::vector<Observation>& out, const RunData& run) {
  if (!run.burn || !run.burn->job || !run.burn->job->allocation) return;
  const auto& outside = run.burn->job->allocation->outside;
  const std::set<std::string> hosts(outside.begin(), outside.end());
  std::set<std::string> untested;
  for (const auto& f : run.burn->findings.value_or(std::vector<Finding>{}))
    if (f.kind == FindingKind::Untested) {
      const UntestedDetails d = details_of<FindingKind::Untested>(f);
      untested.insert(d.cables.begin(), d.cables.end());
      untested.insert(d.switches.begin(), d.switches.end());
    }
  std::erase_if(out, [&](const Observation& o) {
    if (!o.kind.empty()) return false;
    if (o.subject_kind == "host") return hosts.contains(o.subject);
    if (o.subject_kind == "hca") return hosts.contains(host_of(o.subject));
    return untested.contains(o.subject);
  });
}

void check(int rc, sqlite3* db, const std::string& path) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    throw EnvironmentError(path + ": sqlite: " + sqlite3_errmsg(db));
}

class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
    check(sqlite3_prepare_v2(db, sql, -1, &s_, nullptr), db, path);
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(s_, i, v.c_str(), -1, SQLITE_TRANSIENT), db_, path_);
    return *this;
  }
  Stmt& bind(int i, long long v) {
    check(sqlite3_bind_int64(s_, i, v), db_, path_);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(s_);
    check(rc, db_, path_);
    return rc == SQLITE_ROW;
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  std::string text(int i) {
    auto p = sqlite3_column_text(s_, i);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  long long integer(int i) { return sqlite3_column_int64(s_, i); }

 private:
  sqlite3* db_;
  std::string path_;
  sqlite3_stmt* s_ = nullptr;
};

void exec(sqlite3* db, const std::string& path, const char* sql) {
  check(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), db, path);
}
}  // namespace

std::vector<Observation> observations(const RunData& run) {
  std::vector<Observation> out;
  if (run.burn) {
    for (const auto& e : run.burn->endpoints) {
      std::string ep = e.endpoint.value_or("");
      ep = ep.substr(0, ep.find(':'));  // verbs endpoints are dev:port; the HCA is the device
      const bool bad = e.verdict != burn::Verdict::Pass && e.verdict != burn::Verdict::Unjudged;
      Observation o{"host",
                    e.host.value_or(""),
                    "burn",
                    bad ? to_string(e.verdict) : "",
                    bad ? "error" : "",
                    e.reason.value_or("")};
      out.push_back(o);
      o.subject_kind = "hca", o.subject = o.subject + " " + ep, out.push_back(o);
    }
    // Cables the burn's localisation named with confidence.
    for (const auto& x : run.burn->suspects.value_or(std::vector<burn::SuspectRecord>{}))
      if (x.confidence >= 0.75)
        out.push_back({"cable", cable_name(port_from_text(x.from), port_from_text(x.to)), "burn",
                       to_string(FindingKind::SuspectCable), "error", x.cable});
    for (const auto& h : run.burn->host_checks)
      for (const auto& f : h.check.findings)
        out.push_back({"host", h.host, "host", to_string(f.kind), to_string(f.severity), f.message});
  }
  if (run.topo)
    for (const auto& f : *run.topo) finding_obs(out, "topo", f);
  if (run.counters) {
    for (const auto& p : run.counters->value("ports", nlohmann::json::array())) {
      const std::string node = p.value("node", "");
      node_obs(out, node, {"", "", "counters", "", "", ""});
      if (p.contains("peer"))
        out.push_back(
            {"cable", cable_name({node, p.value("port", 0)}, {p["peer"].value("node", ""), p["peer"].value("port", 0)}),
             "counters", "", "", ""});
    }
    for (const auto& f : counters_findings(run)) finding_obs(out, "counters", f);
  }
  for (const auto& h : run.hosts) {
    out.push_back({"host", h.host, "host", "", "", ""});
    for (const auto& f : h.findings)
      out.push_back({"host", h.host, "host", to_string(f.kind), to_string(f.severity), f.message});
  }
  drop_unseen(out, run);
  return out;
}

History::History(const std::string& db_path) : path_(db_path) {
  if (sqlite3_open_v2(db_path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw EnvironmentError(db_path + ": cannot open: " + msg);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec(db_, path_,
       "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT, time INTEGER);"
       "CREATE TABLE IF NOT EXISTS observations(run_id INTEGER REFERENCES runs(id), subject_kind TEXT,"
       " subject TEXT, source TEXT, kind TEXT, severity TEXT, message TEXT);"
       "CREATE INDEX IF NOT EXISTS observations_run ON observations(run_id);");
  // The run's verdict (run_verdict.h); databases from before it have none (finished runs).
  bool has_outcome = false;
  for (Stmt cols(db_, path_, "PRAGMA table_info(runs)"); cols.step();) has_outcome |= cols.text(1) == "outcome";
  if (!has_outcome) exec(db_, path_, "ALTER TABLE runs ADD COLUMN outcome TEXT");
}

History::~History() { sqlite3_close(db_); }

long long History::record(const std::string& label, long long unix_time, const RunData& run) {
  const auto obs = observations(run);
  exec(db_, path_, "BEGIN IMMEDIATE");
  try {
    Stmt(db_, path_, "INSERT INTO runs(label, time, outcome) VALUES(?, ?, ?)")
        .bind(1, label)
        .bind(2, unix_time)
        .bind(3, std::string(to_string(run_verdict(run).outcome)))
        .step();
    const long long id = sqlite3_last_insert_rowid(db_);
    Stmt ins(db_, path_, "INSERT INTO observations VALUES(?, ?, ?, ?, ?, ?, ?)");
    for (const auto& o : obs) {
      ins.bind(1, id)
          .bind(2, o.subject_kind)
          .bind(3, o.subject)
          .bind(4, o.source)
          .bind(5, o.kind)
          .bind(6, o.severity)
          .bind(7, o.message)
          .step();
      ins.reset();
    }
    exec(db_, path_, "COMMIT");
    return id;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

HistoryReport History::rank(int last_n) const {
  HistoryReport r;
  Stmt runs(db_, path_, "SELECT id, outcome FROM runs ORDER BY id DESC LIMIT ?");
  runs.bind(1, static_cast<long long>(last_n));
  long long oldest = 0;
  std::set<long long> incomplete;
  while (runs.step()) {
    oldest = runs.integer(0), ++r.runs;
    if (runs.text(1) == to_string(RunOutcome::Incomplete)) incomplete.insert(oldest);
  }
  r.incomplete = static_cast<int>(incomplete.size());
  // Ordered by run so the last finding's kind wins.
  Stmt q(db_, path_, "SELECT subject_kind, subject, run_id, kind FROM observations WHERE run_id >= ? ORDER BY run_id");
  q.bind(1, oldest);
  std::map<std::pair<std::string, std::string>, SubjectScore> scores;
  std::map<std::pair<std::string, std::string>, std::set<long long>> failed;
  while (q.step()) {
    const std::string kind = q.text(3);
    // A run that did not finish saw nothing through: what it found counts, what it saw fine
    // makes nothing golden.
    if (kind.empty() && incomplete.count(q.integer(2))) continue;
    auto key = std::pair(q.text(0), q.text(1));
    auto& s = scores[key];
    s.subject_kind = key.first, s.subject = key.second;
    if (kind.empty()) continue;
    ++s.findings;
    s.last_kind = kind;
    failed[key].insert(q.integer(2));
  }
  for (auto& [key, s] : scores) {
    s.failed_runs = static_cast<int>(failed[key].size());
    (s.findings ? r.failing : r.golden).push_back(s);
  }
  std::stable_sort(r.failing.begin(), r.failing.end(), [](const SubjectScore& a, const SubjectScore& b) {
    return std::tie(b.failed_runs, b.findings) < std::tie(a.failed_runs, a.findings);
  });
  return r;
}

burn::JobChanges compare_runs(long long previous_run, const std::vector<Observation>& previous,
                              const std::vector<Observation>& current) {
  auto failing = [](const std::vector<Observation>& obs) {
    std::set<std::string> out;
    for (const auto& o : obs)
      if (!o.kind.empty()) out.insert(o.subject_kind + " " + o.subject + ": " + o.kind);
    return out;
  };
  const std::set<std::string> before = failing(previous), now = failing(current);
  burn::JobChanges c;
  c.previous_run = previous_run;
  for (const auto& x : now) (before.count(x) ? c.still_failing : c.new_findings).push_back(x);
  for (const auto& x : before)
    if (!now.count(x)) c.recovered.push_back(x);
  return c;
}

std::vector<Observation> History::observations_of(long long run_id) const {
  Stmt q(db_, path_,
         "SELECT subject_kind, subject, source, kind, severity, message FROM observations WHERE run_id = ?");
  q.bind(1, run_id);
  std::vector<Observation> out;
  while (q.step()) out.push_back({q.text(0), q.text(1), q.text(2), q.text(3), q.text(4), q.text(5)});
  return out;
}

std::optional<burn::JobChanges> History::changes_since_previous(long long run_id) const {
  Stmt q(db_, path_, "SELECT id FROM runs WHERE id < ? ORDER BY id DESC LIMIT 1");
  q.bind(1, run_id);
  if (!q.step()) return std::nullopt;
  const long long previous = q.integer(0);
  return compare_runs(previous, observations_of(previous), observations_of(run_id));
}

std::vector<NightRun> History::last_runs(int n) const {
  std::vector<NightRun> out;
  Stmt q(db_, path_, "SELECT id, label, time, outcome FROM runs ORDER BY id DESC LIMIT ?");
  q.bind(1, static_cast<long long>(n));
  while (q.step()) out.push_back({q.integer(0), q.text(1), q.integer(2), q.text(3), {}});
  std::reverse(out.begin(), out.end());
  for (auto& r : out) r.observations = observations_of(r.id);
  return out;
}

std::set<std::string> History::failed_cables(long long run_id) const {
  std::set<std::string> out;
  for (const auto& o : observations_of(run_id))
    if (o.subject_kind == "cable" && !o.kind.empty()) out.insert(o.subject);
  return out;
}

}  // namespace ibburn::report
