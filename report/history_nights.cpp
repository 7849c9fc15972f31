#include "report/history_nights.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/finding_catalogue.h"
#include "common/finding_details.h"
#include "report/run_verdict.h"

namespace ibburn::report {

namespace {
// A cable with such a finding did not carry a full load that night: unloaded, missing, down
// or running below its rate (the catalogue's fabric-map marks for those).
bool not_loaded(const std::string& name) {
  auto kind = finding_kind_from_string(name);
  if (!kind) return false;
  switch (info(*kind).map) {
    case MapMark::Unloaded:
    case MapMark::Missing:
    case MapMark::Flapping:
    case MapMark::Degraded: return true;
    case MapMark::Errors:
    case MapMark::Slow:
    case MapMark::Miswired: return false;
  }
  return false;
}

std::set<std::string> failing(const NightRun& r) {
  std::set<std::string> out;
  for (const auto& o : r.observations)
    if (!o.kind.empty()) out.insert(o.subject_kind + " " + o.subject + ": " + o.kind);
  return out;
}
}  // namespace

Nights nights_side_by_side(std::vector<NightRun> runs, size_t max_cables,
                           const std::vector<std::string>& untested_latest) {
  Nights n;
  const size_t nights = runs.size();
  struct Seen {
    std::vector<int> findings;
    std::vector<bool> unloaded, seen;
  };
  std::map<std::string, Seen> cables;
  std::map<std::pair<std::string, std::string>, bool> subjects;  // -> failed so far
  std::vector<std::set<std::string>> failing_at;
  for (size_t i = 0; i < nights; ++i) {
    const bool finished = runs[i].outcome != to_string(RunOutcome::Incomplete);
    for (const auto& o : runs[i].observations) {
      if (o.subject_kind == "cable") {
        auto& c = cables[o.subject];
        c.findings.resize(nights, -1), c.unloaded.resize(nights, false), c.seen.resize(nights, false);
        if (c.findings[i] < 0) c.findings[i] = 0;
        c.seen[i] = c.seen[i] || finished;
        if (!o.kind.empty()) ++c.findings[i];
        if (not_loaded(o.kind)) c.unloaded[i] = true;
      }
      // As `ibburn history`: what an unfinished night saw fine makes nothing golden.
      if (o.kind.empty() && !finished) continue;
      auto [it, fresh] = subjects.try_emplace({o.subject_kind, o.subject}, false);
      it->second = it->second || !o.kind.empty();
    }
    n.golden.push_back(
        static_cast<size_t>(std::count_if(subjects.begin(), subjects.end(), [](const auto& s) { return !s.second; })));
    failing_at.push_back(failing(runs[i]));
  }
  for (const auto& name : untested_latest) cables.try_emplace(name);
  for (auto& [name, c] : cables) {
    CableNights row{name, c.findings};
    for (size_t i = 0; i < nights && i < c.seen.size(); ++i)
      if (c.seen[i] && !c.unloaded[i]) row.last_full_load = static_cast<int>(i);
    ++n.coverage.cables;
    if (nights > 0 && row.last_full_load == static_cast<int>(nights) - 1)
      ++n.coverage.loaded_latest;
    else
      n.coverage.stale.push_back({name, {}, row.last_full_load}), n.coverage.loaded_earlier += row.last_full_load >= 0;
    if (std::all_of(c.findings.begin(), c.findings.end(), [](int f) { return f <= 0; })) continue;
    n.cables.push_back(std::move(row));
  }
  std::stable_sort(n.coverage.stale.begin(), n.coverage.stale.end(),
                   [](const CableNights& a, const CableNights& b) { return a.last_full_load < b.last_full_load; });
  if (n.coverage.stale.size() > max_cables)
    n.coverage.stale_left_out = n.coverage.stale.size() - max_cables, n.coverage.stale.resize(max_cables);
  auto bad_nights = [](const CableNights& c) {
    return std::count_if(c.findings.begin(), c.findings.end(), [](int f) { return f > 0; });
  };
  std::stable_sort(n.cables.begin(), n.cables.end(),
                   [&](const CableNights& a, const CableNights& b) { return bad_nights(a) > bad_nights(b); });
  if (n.cables.size() > max_cables) n.cables_left_out = n.cables.size() - max_cables, n.cables.resize(max_cables);
  if (nights > 0) {
    std::set<std::string> earlier;
    for (size_t i = 0; i + 1 < nights; ++i) earlier.insert(failing_at[i].begin(), failing_at[i].end());
    for (const auto& x : failing_at.back()) (earlier.count(x) ? n.recurring : n.new_findings).push_back(x);
    if (nights > 1)
      for (const auto& x : failing_at[nights - 2])
        if (!failing_at.back().count(x)) n.gone.push_back(x);
  }
  for (auto& r : runs) r.observations.clear();
  n.runs = std::move(runs);
  return n;
}

std::vector<std::string> untested_cables(const RunData& run) {
  std::vector<std::string> out;
  if (run.burn)
    for (const auto& f : run.burn->findings.value_or(std::vector<Finding>{}))
      if (f.kind == FindingKind::Untested)
        for (const auto& c : details_of<FindingKind::Untested>(f).cables) out.push_back(c);
  return out;
}

}  // namespace ibburn::report
