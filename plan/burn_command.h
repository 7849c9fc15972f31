#pragma once
// `ibburn burn` past its argument parsing: the fabric's part. With transport "sim" the
// burn runs through the fluid model over the fabric (fluid/simulated_burn.h); otherwise the
// MPI burn runs, and with a fabric given a route explainer names the cables behind slow
// flows and asks for probe stages (localization/burn_localize.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "burn/engine.h"
#include "routing/route_model.h"

namespace ibburn::plan {

struct BurnRouteOptions {
  routing::RouteOptions routes;
  bool fabric_given = false;         // --fabric given: explain slow flows (MPI burn)
  std::string endpoints;             // sim: rank -> port GUID; MPI: ports of ranks that report none
  std::vector<std::string> degrade;  // sim only: NODE[PORT]=FRACTION
  int probes = 6;                    // at most this many probe stages
};

// The explainer the MPI burn makes on rank 0 when the run starts: it reads the fabric then,
// not when the options are parsed.
std::function<std::shared_ptr<burn::SessionObserver>()> route_explainer_factory(const BurnRouteOptions& options);

// Runs the burn (simulated or MPI) and returns its exit code. Throws InputError for
// options that do not fit the transport (--degrade without sim, --endpoints without --fabric).
int burn_command(burn::BurnOptions burn_options, const BurnRouteOptions& options);

}  // namespace ibburn::plan
