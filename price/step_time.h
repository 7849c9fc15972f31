#pragma once
// The time of one unit of a collective over a fabric's capacities (pure): its slowest cable,
// each cable's load over its rate. That is the first bottleneck of the fluid model's max-min
// fair shares (fluid/fluid.h): with every flow wanting more than its fair share, the slowest
// flows get a cable's rate divided by its load, and a step lasts as long as they do.
//
// Defects change the rates: a cable at 25% has a quarter of its rate; a dead one (0) none.
//   - A host's dead cable moves its load onto the host's other cables in the same direction,
//     evenly (NCCL spreads a missing NIC's channels over the rest, whatever their rates).
//   - Under adaptive routing a group of equal cables (price_fabric.h) carries its load as one:
//     the group's load over the sum of its rates, a slow cable's share going to its siblings.
//   - Under static routes a slow cable keeps its load (its routes do not move); a dead one's
//     routes move evenly onto its group, as the subnet manager's next sweep does.
#include <limits>
#include <unordered_map>
#include <vector>

#include "price/collectives.h"
#include "price/price_fabric.h"

namespace ibburn::price {

// A cable direction's rate as a fraction of its designed rate (0: down). Absent: 1.
using RateScale = std::unordered_map<routing::EdgeId, double>;

inline constexpr double kNever = std::numeric_limits<double>::infinity();

class StepTimer {
 public:
  // `capacity_gbps`: the fabric as designed, by edge.
  StepTimer(const PriceFabric& fabric, std::vector<double> capacity_gbps);
  const std::vector<double>& capacity() const { return capacity_; }
  // Seconds per gigabit of one unit; kNever when some load has no path left.
  double unit_time(const EdgeLoads& loads, const RateScale* scale = nullptr);

 private:
  const PriceFabric& fabric_;
  std::vector<double> capacity_;
  std::vector<double> load_;                         // by edge, during a call
  std::vector<double> group_load_;                   // by group, during a call
  std::vector<double> group_moved_;                  // by group: dead members' load, static routes
  std::vector<GroupId> groups_;                      // touched
  std::vector<std::pair<HostId, bool>> dead_hosts_;  // host, up: a dead host cable's load
  std::vector<double> host_moved_;
};

}  // namespace ibburn::price
