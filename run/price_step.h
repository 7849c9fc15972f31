#pragma once
// What each finding costs the site's jobs (price/pricing.h), priced with the burn's summary
// once it has run to its end (or was stopped): summary.json's "price" (with --pattern ring's
// measured step beside the model's), the lists' cost order (job.costs), and past
// --max-slowdown the no-go as a finding. Recorded as the "price" step after the burn's.
#include <vector>

#include "burn/summary.h"
#include "run/job_state.h"

namespace ibburn::run {

void price_findings(JobState& job, burn::BurnSummary& doc, std::vector<Finding>& all);

}  // namespace ibburn::run
