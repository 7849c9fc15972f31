#pragma once
// The fabric, its directed cables and the routing model that `plan`, `plan localize` and
// `burn --fabric` ask for: a fabric file or live discovery, then the switches' forwarding
// tables (read live or from a saved file) or adaptive even splitting.
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"
#include "topo/fabric_source.h"

namespace ibburn::routing {

struct RouteOptions {
  topo::FabricSource fabric;    // default: live discovery
  std::string routing = "lft";  // "lft" or "adaptive"
  std::string lfts;             // forwarding tables saved earlier
  std::string save_lfts;        // where to save the tables read live
};

// Not movable: the router refers to the fabric and the cables.
struct RouteModel {
  topo::Fabric fabric;
  std::unique_ptr<CableIndex> cables;
  std::optional<ForwardingTables> lfts;
  std::unique_ptr<Router> router;
  RouteModel() = default;
  RouteModel(const RouteModel&) = delete;
  RouteModel& operator=(const RouteModel&) = delete;
};

// Throws InputError (bad file, link of unknown rate, lft routing without tables) or
// EnvironmentError (live discovery failed).
std::unique_ptr<RouteModel> load_route_model(const RouteOptions& options);
// The same over a fabric already loaded (`ibburn run` discovers once and names switches
// from the wiring list first); `options.fabric` still says where tables are read live.
std::unique_ptr<RouteModel> make_route_model(topo::Fabric fabric, const RouteOptions& options);

// "node[port]=fraction": both directions of the cable at that port run at `fraction` of
// their capacity. Adds to `out`; throws InputError naming the spec.
void parse_degrade(const std::string& spec, const topo::Fabric& fabric, const CableIndex& cables,
                   std::unordered_map<EdgeId, double>& out);

}  // namespace ibburn::routing
