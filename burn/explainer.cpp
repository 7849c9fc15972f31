#include "burn/explainer.h"

#include "common/interrupt.h"

namespace ibburn::burn {

void run_stages(Plan& plan, Explainer* explainer, const std::vector<EndpointInfo>& endpoints,
                const std::function<Summary(std::size_t)>& run_stage) {
  Summary last;
  for (std::size_t i = 0; i < plan.stages.size() && !interrupted(); ++i) last = run_stage(i);
  for (int extra = 0; explainer && !interrupted(); ++extra) {
    auto next = explainer->follow_up(last, endpoints, extra);
    if (!next) break;
    plan.stages.push_back(std::move(*next));
    last = run_stage(plan.stages.size() - 1);
  }
}

}  // namespace ibburn::burn
