#pragma once
// `ibburn burn --transport sim`: the burn's stages, results and verdicts with the fluid
// model (fluid/fluid.h) in place of bytes on the wire. One process, no MPI, any number of
// ranks (one per HCA port of the fabric by default); writes the same results.jsonl and
// summary.json as a real burn, so `report`, `history` and `plan localize` read it alike.
// The fluid model is a stage runner of rank 0's session (burn/session.h), which records it
// as it records a real burn. Degraded cables make slow flows; the options' observer
// localises them and asks for probe stages exactly as it does in a real burn.
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "burn/engine.h"
#include "burn/stage_plan.h"
#include "burn/transport.h"
#include "routing/route_model.h"

namespace ibburn::fluid {

struct SimulatedBurn {
  std::shared_ptr<const routing::RouteModel> routes;
  std::vector<topo::PortEnd> endpoints;  // index = rank
  burn::Plan plan;
  std::unordered_map<routing::EdgeId, double> degrade;  // capacity fraction per cable direction
  // A live fabric (ibsim or hardware): each stage takes the options' duration in wall-clock
  // time, so what happens on the fabric meanwhile (errors, unlinked ports) lands in the
  // stage's window, and `tick(elapsed_s)` is called about once a second (progress). Over a
  // fabric file nothing happens meanwhile, so a stage takes no wall time; its seconds (bytes,
  // rates) still come from the duration.
  bool live_fabric = false;
  std::function<void(double)> tick;
  // After each stage's wait, before the stage is judged: the Gb/s the model put on every
  // cable direction (by EdgeId) for `seconds` (`ibburn run` writes them into a simulated
  // fabric's data counters).
  std::function<void(const std::vector<double>& edge_gbps, double seconds)> on_traffic;
};

// What a rank bound to this HCA port reports: host and device from the node description
// ("node7 mlx5_0" -> host node7, endpoint mlx5_0:1), GUID, LID, the link's rate.
burn::EndpointInfo simulated_endpoint(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                      topo::PortEnd port);

// Exit code as for a real burn: 0 all passed, 1 findings, 130 interrupted.
int run_simulated_burn(const SimulatedBurn& run, const burn::BurnOptions& options);

}  // namespace ibburn::fluid
