#include "run/history_step.h"

#include <ctime>

#include "report/history.h"
#include "report/run_data.h"

namespace ibburn::run {

std::string HistoryStep::run(JobState& job) {
  report::History h(job.o.history);
  const report::RunData run = report::load_run_dir(job.dir);
  const long long id = h.record(job.dir, static_cast<long long>(std::time(nullptr)), run);
  if (!doc_.job) doc_.job.emplace();
  doc_.job->changes = h.changes_since_previous(id);
  if (doc_.job->changes) job.failed_before = h.failed_cables(doc_.job->changes->previous_run);
  return "run " + std::to_string(id) + " recorded";
}

}  // namespace ibburn::run
