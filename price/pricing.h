#pragma once
// What each finding costs the site's jobs (pure): for every collective (collectives.h) and job
// size, over every placement the scheduler would make (placement.h), the time over the time
// on the fabric as designed, with that finding's defect alone (defects.h) and with all of them
// (the fabric as measured). A finding's price is its worst; the lists a site acts on are
// ordered by it, and a limit on the fabric's slowdown (--max-slowdown) is the go/no-go.
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding.h"
#include "price/collectives.h"
#include "price/defects.h"
#include "price/placement.h"

namespace ibburn::price {

struct PriceOptions {
  std::string job_sizes;                // --job-sizes; empty: leaf, pod, all
  double bytes = 1024.0 * 1024 * 1024;  // per GPU, for the times reported
  std::optional<double> max_slowdown;   // 0.02: fail beyond 1.02x; unset: report only
  std::string option = "--job-sizes";   // named in errors
};

// One collective at one job size, time over the designed time.
struct Cost {
  Collective collective{};
  std::string job;  // as the site named the size
  size_t hosts = 0, placements = 0, slowed = 0;
  double worst = 1;  // the worst placement's slowdown; kNever where the job cannot run
  double share() const { return placements ? static_cast<double>(slowed) / static_cast<double>(placements) : 0; }
};

struct FabricCost {
  Cost cost;                          // the fabric as measured
  CollectiveTime designed, measured;  // of the worst placement
};

// What is priced: a finding, or a what-if (`ibburn price --degrade/--down`).
struct Subject {
  std::string kind;  // the finding's kind; "what_if"
  std::string message;
  std::vector<PortRef> ports;
  std::optional<Defect> defect;
  std::string not_priced;  // why, when there is no defect
};

// Each finding as a subject, in the findings' order.
std::vector<Subject> subjects_of(const std::vector<Finding>& findings, const PriceFabric& fabric,
                                 const RateScale& measured);

struct FindingPrice {
  size_t subject = 0;  // its index in the subjects priced (the findings' order)
  Subject what;
  std::vector<Cost> costs;  // per collective and job size (priced subjects)
  // The cost that is worst (largest slowdown, then share): what the lists show.
  const Cost* worst() const;
  double slowdown() const { return worst() ? worst()->worst : 1.0; }
  const std::optional<Defect>& defect() const { return what.defect; }
};

struct PriceReport {
  bool adaptive = false;
  size_t hosts = 0, rails = 0;
  double bytes = 0;
  std::vector<JobSize> jobs;
  std::vector<size_t> placements;      // per job size
  std::vector<FabricCost> fabric;      // per collective and job size
  std::vector<FindingPrice> findings;  // costliest first, then the unpriced in their order
  std::optional<double> max_slowdown;
  std::vector<std::string> no_go;  // each collective and size beyond the limit, with why
  bool go() const { return no_go.empty(); }
  // The `top` costliest repairs that slow something: one per part (a cable's findings, both its
  // directions and its endpoint's, are one repair), costliest first.
  std::vector<const FindingPrice*> repairs(size_t top) const;
};

// `drained`: hosts the scheduler no longer places (a what-if's --drain).
PriceReport price_subjects(const PriceFabric& fabric, std::vector<Subject> subjects, const PriceOptions& options,
                           const std::set<HostId>& drained = {});

// The burn pattern `ring` beside the model (burn/ring_pattern.h): the ring's step over these
// hosts in its order, the slowest flow's rate, as the burn measured it, as the model gives it
// with every priced defect, and as designed. In the simulator the burn is the fluid model, so
// the two agree by construction; on hardware this checks the model against the fabric.
struct RingCheck {
  size_t hosts = 0;
  double measured_gbps = 0, model_gbps = 0, designed_gbps = 0;
};
RingCheck ring_check(const PriceFabric& fabric, const std::vector<Subject>& subjects, const std::vector<HostId>& order,
                     double measured_gbps);
nlohmann::json to_json(const RingCheck& c);

// "ring all-reduce, 512 hosts: 1.33x in 12% of placements"; "... cannot run" when a job has no path.
std::string cost_text(const Cost& c);
// "1.33x", "cannot run".
std::string slowdown_text(double s);

nlohmann::json to_json(const PriceReport& r);
// The go/no-go, the fabric's costs, then the `top` costliest findings.
void print_price(std::ostream& os, const PriceReport& r, size_t top);

}  // namespace ibburn::price
