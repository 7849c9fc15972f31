#pragma once
// The job's verdict over all its evidence, at every summary the burn writes (so a job that
// dies keeps its latest): the topo check's and the audit's findings, the health captures',
// the counters' (each stage's, the fabric's changes, cables named by their own counters,
// directions no stage loaded), the burn's localised flows and endpoints; scoped to the job's
// hosts, one systemic cause for many symptoms, priced once the burn has ended, worst first;
// the job record and the lists written with it.
#include <vector>

#include "burn/engine.h"
#include "run/job_state.h"

namespace ibburn::run {

void judge(JobState& job, burn::Summary& s, const std::vector<burn::EndpointInfo>& eps);

// Pure. Localisation from traffic alone cannot tell cables on the same paths apart; one of
// them whose own counters rose under load (`counter_findings`' errors_under_load) can: the
// suspect then names that cable, with the counter evidence, as an error.
void corroborate(std::vector<Finding>& burn_findings, const std::vector<Finding>& counter_findings);

}  // namespace ibburn::run
