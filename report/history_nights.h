#pragma once
// Nights side by side (pure): the last runs of a history (report/history.h), oldest first,
// as the page's table: per cable with a finding, its findings night by night and the last
// night it carried a full load; the findings new in the latest night, gone since the one
// before it, and recurring; the golden set's size after each night.
#include <string>
#include <vector>

#include "report/history.h"

namespace ibburn::report {

struct NightRun {
  long long id = 0;
  std::string label;
  long long time = 0;
  std::string outcome;  // pass, fail, incomplete
  std::vector<Observation> observations;
};

struct CableNights {
  std::string cable;          // "a[p] - b[q]"
  std::vector<int> findings;  // per night: its findings, -1 when the night did not see it
  int last_full_load = -1;    // the latest night (index) that saw it finished and loaded, -1 none
};

// Coverage over nights: partial allocations load some cables each night, so what a site
// wants is when each cable last carried a full load.
struct Coverage {
  size_t cables = 0;               // every cable the nights saw, or the latest night left untested
  size_t loaded_latest = 0;        // of those, loaded fully in the latest night
  size_t loaded_earlier = 0;       // not in the latest night, but in an earlier one
  std::vector<CableNights> stale;  // the cables not loaded fully in the latest night, never-loaded first,
                                   // then the longest ago (findings empty), at most `max_cables`
  size_t stale_left_out = 0;
};

struct Nights {
  std::vector<NightRun> runs;       // oldest first, without their observations
  std::vector<CableNights> cables;  // most nights with findings first, at most `max_cables`
  size_t cables_left_out = 0;
  Coverage coverage;
  // "kind subject: finding" of the latest night: not in any earlier night (new), in the night
  // before and not now (gone), now and in an earlier night (recurring).
  std::vector<std::string> new_findings, gone, recurring;
  // Subjects seen by a finished night up to each night and never with a finding up to then.
  std::vector<size_t> golden;
};

// A cable carried a full load in a finished night that saw it without a finding saying
// it was not loaded (not exercised, unused, missing, down, degraded). `untested_latest`: the
// cables the latest night named untested (its `untested` finding), which no night may have seen.
Nights nights_side_by_side(std::vector<NightRun> runs, size_t max_cables = 200,
                           const std::vector<std::string>& untested_latest = {});

// The cables this run's job left untested (a partial allocation): the nights' coverage lists
// them even when no night saw them.
std::vector<std::string> untested_cables(const RunData& run);

}  // namespace ibburn::report
