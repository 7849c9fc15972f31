#pragma once
// `ibburn price`: what each finding of a saved run, or each what-if, costs the site's jobs
// (pricing.h), over a fabric file or the live fabric and its routes. The terminal gets the
// go/no-go, the fabric's costs and the costliest repairs; --json gets the numbers.
#include <iosfwd>
#include <string>
#include <vector>

#include "price/pricing.h"
#include "routing/route_model.h"

namespace ibburn::price {

struct PriceCommandOptions {
  routing::RouteOptions routes;
  std::string wiring;                // the wiring list: names for switches whose names are generic
  std::string results;               // a run's directory: its summary.json's findings and flows
  std::vector<std::string> degrade;  // what-ifs: NODE[PORT]=FRACTION
  std::vector<std::string> down;     // NODE[PORT]
  std::vector<std::string> drain;    // hosts the scheduler no longer places
  PriceOptions price;
  std::string max_slowdown;  // "2%" or "0.02"; empty: report only
  std::string json;          // the report, as summary.json's "price"
  size_t top = 3;
};

// "2%" -> 0.02, "0.02" -> 0.02; InputError naming `option` otherwise.
double parse_slowdown_limit(const std::string& text, const std::string& option);

// 0: go (or no limit given), 1: the fabric as measured is slower than --max-slowdown allows,
// 2: bad input (thrown as InputError).
int price_command(const PriceCommandOptions& options, std::ostream& out);

}  // namespace ibburn::price
