#include "report/run_verdict.h"

#include <fmt/format.h>

#include "common/exit_codes.h"

namespace ibburn::report {

RunVerdict run_verdict(const RunData& run) {
  RunVerdict v;
  if (run.burn && run.burn->findings) {
    v.findings = *run.burn->findings;
  } else {
    if (run.topo) v.findings.insert(v.findings.end(), run.topo->begin(), run.topo->end());
    for (auto& f : counters_findings(run)) v.findings.push_back(std::move(f));
    for (const auto& h : run.hosts) v.findings.insert(v.findings.end(), h.findings.begin(), h.findings.end());
  }
  if (run.burn) {
    if (burn::run_outcome(*run.burn) == RunOutcome::Incomplete) {
      v.outcome = RunOutcome::Incomplete;
      const burn::RunState state = burn::run_state(*run.burn);
      v.why_incomplete = state == burn::RunState::Complete
                             ? fmt::format("{} rank(s) lost during the burn: their flows were not measured to the end",
                                           run.burn->lost_ranks.size())
                             : fmt::format("summary.json says {}: {} of {} planned stage(s) measured", to_string(state),
                                           run.burn->stages_run, run.burn->stages_planned);
      return v;
    }
  } else if (run.began) {
    v.outcome = RunOutcome::Incomplete;
    v.why_incomplete = "no summary.json: the run stopped, or is still going, before its first summary";
    return v;
  }
  const bool burn_ok = !run.burn || run.burn->pass;
  v.outcome = burn_ok && exit_code_for(v.findings) == kExitOk ? RunOutcome::Pass : RunOutcome::Fail;
  return v;
}

}  // namespace ibburn::report
