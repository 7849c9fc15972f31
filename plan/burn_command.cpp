#include "plan/burn_command.h"

#include "common/error.h"
#include "common/file_io.h"
#include "localization/burn_localize.h"
#include "plan/plan_output.h"
#include "burn/ring_pattern.h"
#include "fluid/simulated_burn.h"

namespace ibburn::plan {
namespace {

// `--transport sim`: every rank is an HCA port of the fabric, and the fluid model moves the
// bytes.
int run_simulated(burn::BurnOptions o, const BurnRouteOptions& r) {
  std::shared_ptr<const routing::RouteModel> model = routing::load_route_model(r.routes);
  o.observer = [model, n = r.probes]() -> std::shared_ptr<burn::SessionObserver> {
    return std::make_shared<localization::RouteExplainer>(model, n);
  };
  fluid::SimulatedBurn run;
  run.routes = model;
  run.live_fabric = r.routes.fabric.is_live();
  run.endpoints = load_endpoints(r.endpoints, model->fabric).ports;
  const int ranks = static_cast<int>(run.endpoints.size());
  if (!o.plan_file.empty()) {
    run.plan = burn::load_plan(o.plan_file, ranks);
  } else if (o.pattern == burn::kRingPattern) {
    std::vector<burn::EndpointInfo> eps;
    for (const auto& p : run.endpoints) eps.push_back(fluid::simulated_endpoint(model->fabric, *model->cables, p));
    run.plan = burn::make_ring(eps, o.streams);
  } else {
    run.plan = burn::make_pattern(o.pattern, ranks, o.streams);
  }
  for (const auto& d : r.degrade) routing::parse_degrade(d, model->fabric, *model->cables, run.degrade);
  return fluid::run_simulated_burn(run, o);
}

}  // namespace

std::function<std::shared_ptr<burn::SessionObserver>()> route_explainer_factory(const BurnRouteOptions& r) {
  return [routes = r.routes, file = r.endpoints, n = r.probes]() -> std::shared_ptr<burn::SessionObserver> {
    std::shared_ptr<const routing::RouteModel> m = routing::load_route_model(routes);
    return std::make_shared<localization::RouteExplainer>(m, n,
                                                          given_port_guids(load_endpoints(file, m->fabric), m->fabric));
  };
}

int burn_command(burn::BurnOptions o, const BurnRouteOptions& r) {
  if (o.transport == burn::TransportKind::Sim) return run_simulated(std::move(o), r);
  if (!r.degrade.empty()) throw Error(kExitInput, "--degrade is for --transport sim");
  if (!r.endpoints.empty() && !r.fabric_given) throw Error(kExitInput, "--endpoints needs --fabric");
  if (r.fabric_given) o.observer = route_explainer_factory(r);
  return burn::run_burn(o);
}

}  // namespace ibburn::plan
