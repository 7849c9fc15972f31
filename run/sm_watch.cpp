#include "run/sm_watch.h"

#include <fmt/format.h>

#include "common/guid.h"

namespace ibburn::run {

std::optional<Finding> SmWatch::check(const topo::SmProbe& now, int stage) {
  if (reported_ || !start_.sm || !start_.sm->master()) return std::nullopt;
  if (now.sm && now.sm->master()) return std::nullopt;  // the same SM, or a standby that took over
  reported_ = true;
  const topo::MasterSm& was = *start_.sm;
  const std::string why =
      now.sm ? fmt::format("the SM at LID {} is in SMState {}, not master", now.sm->lid, now.sm->state) : now.error;
  Finding f;
  f.kind = FindingKind::SmLost;
  f.severity = Severity::Warning;
  f.message = fmt::format(
      "the subnet manager (LID {}, GUID {}) stopped answering during stage {} ({}): LIDs and routes stay as "
      "it left them, so the burn and the counters go on, but a link that changes from now on is not rerouted",
      was.lid, Guid{was.guid}, stage, why);
  f.details = {{"stage", stage}, {"lid", was.lid}, {"guid", Guid{was.guid}.text()}, {"error", why}};
  return f;
}

}  // namespace ibburn::run
