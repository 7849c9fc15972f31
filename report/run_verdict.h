#pragma once
// The one verdict of a run directory, which the page, `report`'s exit code, Prometheus and the
// history all give: PASS, FAIL, or INCOMPLETE for a run that did not finish (its summary's
// verdict is incomplete: burn/summary.h, or the directory has a burn's or a job's files and no
// summary yet), so a killed run never reads as a pass. Pure: on RunData.
#include <string>
#include <vector>

#include "common/finding.h"
#include "report/run_data.h"

namespace ibburn::report {

using burn::RunOutcome;

struct RunVerdict {
  RunOutcome outcome = RunOutcome::Pass;
  // Every finding of the run: the job's one list when summary.json holds it (`ibburn run`,
  // the list its last line counts), else those of topo.json, counters.json and host-*.json.
  std::vector<Finding> findings;
  std::string why_incomplete;  // what the run got to, when Incomplete
};

RunVerdict run_verdict(const RunData& run);

}  // namespace ibburn::report
