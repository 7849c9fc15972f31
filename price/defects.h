#pragma once
// Findings as defects the pricing can weigh (pure): which cable directions run at what share
// of their designed rate. A slow or failed endpoint is its host cable at the rate it measured;
// a suspect cable is at the rate of the slow flows that crossed it whole (the burn's flows) or
// of its data against its equals' (port counters); a link trained below its plan is at the
// ratio of the two rates; a plane behind its peers (plane_asymmetric) is every cable of it at its
// bandwidth share; a cable that went down under load, flaps or is down is at 0. A
// systemic finding is all of its cables at once. An endpoint's cable is at the rate its slow
// flows measured through it, else at the endpoint's lowest rate. Errors that cost no rate, and findings that
// name no cable, are not priced, and say why.
#include <optional>
#include <string>

#include "burn/summary.h"
#include "common/finding.h"
#include "price/price_fabric.h"
#include "price/step_time.h"

namespace ibburn::price {

struct Defect {
  RateScale scale;   // both directions of each cable
  std::string what;  // "at 25%", "down", "4xHDR of 4xNDR"
  // The fabric's model already runs the cable at this rate (a link trained below its plan):
  // the design's rate is the model's over the scale.
  bool in_model = false;
};

// Each cable direction that a slow flow of the burn crossed whole (a static route; a host's
// cable under any routing), at the highest Gb/s over expected of those flows; the burn's
// `port_of_rank` gives the ranks' HCA ports.
RateScale measured_rates(const PriceFabric& fabric, const burn::BurnSummary& burn,
                         const std::vector<std::optional<topo::PortEnd>>& port_of_rank);
// The ranks' ports from their port GUIDs (results.jsonl's endpoints).
std::vector<std::optional<topo::PortEnd>> ports_of_ranks(const PriceFabric& fabric,
                                                         const std::vector<uint64_t>& port_guid_by_rank);

// The defect `f` describes; nullopt with `why` when it is not priced.
std::optional<Defect> defect_of(const Finding& f, const PriceFabric& fabric, const RateScale& measured,
                                std::string& why);

// Several defects as one (each direction at the lowest of their rates).
void merge_into(RateScale& into, const RateScale& from);

}  // namespace ibburn::price
