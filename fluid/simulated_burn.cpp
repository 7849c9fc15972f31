#include "fluid/simulated_burn.h"

#include <algorithm>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "burn/results.h"
#include "burn/session.h"
#include "burn/verdict.h"
#include "common/interrupt.h"
#include "fluid/fluid.h"

namespace ibburn::fluid {
namespace {

// One stage through the fluid model: every direction of every flow at once, each at its
// max-min fair share of the (possibly degraded) cables on its route.
burn::StageResult simulate_stage(const routing::RouteModel& m, const std::vector<topo::PortEnd>& endpoints,
                                 const std::vector<double>& capacity, const burn::Stage& stage, int index,
                                 double seconds, std::vector<double>& edge_gbps) {
  burn::StageResult r;
  r.index = index;
  r.name = stage.name;
  std::vector<SplitFlow> fluid;
  std::vector<burn::DirectionResult*> routed;
  r.flows.reserve(stage.flows.size());
  for (std::uint32_t id = 0; id < stage.flows.size(); ++id) {
    const burn::Flow& f = stage.flows[id];
    burn::FlowResult& fr = r.flows.emplace_back();
    fr.id = id;
    fr.flow = f;
    auto add = [&](int from, int to) {
      burn::DirectionResult& d = fr.directions.emplace_back();
      d.from = from;
      d.to = to;
    };
    add(f.src, f.dst);
    if (f.bidirectional) add(f.dst, f.src);
  }
  for (auto& fr : r.flows)
    for (auto& d : fr.directions) {
      d.seconds = seconds;
      try {
        fluid.push_back(split_flow(*m.cables, *m.router, endpoints[d.from], endpoints[d.to]));
        routed.push_back(&d);
      } catch (const routing::RoutingError& e) {
        d.status = burn::DirectionStatus::Failed;
        d.reason = e.what();
      }
    }
  // Adaptive routing moves load off a slow or full next hop (static routes have no splits).
  FluidResult fr = simulate_max_min(fluid, *m.router, capacity, Splits::Adaptive);
  edge_gbps = std::move(fr.edge_gbps);
  for (size_t i = 0; i < routed.size(); ++i) {
    burn::DirectionResult& d = *routed[i];
    d.gbps = fr.flow_gbps[i];
    d.bytes = static_cast<std::uint64_t>(d.gbps * 1e9 / 8 * seconds);
    d.samples_gbps = {d.gbps};  // the steady state: the model has no time axis
  }
  return r;
}

// On a live fabric the stage's wall-clock time passes for real, so what happens on the fabric
// meanwhile (errors, unlinked ports) lands in the stage's window as on hardware.
void wait_stage(std::chrono::milliseconds duration, const std::function<void(double)>& tick) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now(), end = t0 + duration;
  auto next_tick = t0 + std::chrono::seconds(1);
  while (!interrupted()) {
    const auto now = Clock::now();
    if (now >= end) return;
    if (now >= next_tick) {  // advanced without a tick too, else the sleep below would be 0 (a spin)
      if (tick) tick(std::chrono::duration<double>(now - t0).count());
      next_tick += std::chrono::seconds(1);
    }
    std::this_thread::sleep_for(
        std::min<Clock::duration>({end - now, next_tick - now, std::chrono::milliseconds(100)}));
  }
}

// The session's stage runner for the fluid model: on a live fabric a stage's wall-clock time
// passes first, then the model fills the routes at once.
class FluidStageRunner : public burn::StageRunner {
 public:
  FluidStageRunner(const SimulatedBurn& run, const burn::SessionOptions& o)
      : run_(run),
        o_(o),
        capacity_(degraded_capacities(*run.routes->cables, run.degrade)),
        seconds_(std::chrono::duration<double>(o.duration).count()) {}

  burn::StageResult run_stage(int index, const burn::Stage& stage) override {
    if (run_.live_fabric) wait_stage(o_.duration, run_.tick);
    std::vector<double> edge_gbps;
    burn::StageResult r = simulate_stage(*run_.routes, run_.endpoints, capacity_, stage, index, seconds_, edge_gbps);
    if (run_.on_traffic) run_.on_traffic(edge_gbps, seconds_);
    return r;
  }

  // The model has no time axis, so no per-second progress: a line per stage instead.
  void stage_recorded(const burn::StageResult& r, const burn::Summary& s) override {
    if (o_.quiet) return;
    double total = 0;
    for (const auto& f : r.flows)
      for (const auto& d : f.directions) total += d.gbps;
    auto count = [&](const char* verdict) {
      auto it = s.doc.counts.find(verdict);
      return it == s.doc.counts.end() ? 0 : it->second;
    };
    std::cerr << fmt::format("burn: sim stage {} \"{}\": {} flows, aggregate {:.0f} Gb/s, {} slow\n", r.index, r.name,
                             r.flows.size(), total, count("slow") + count("failed"));
  }

 private:
  const SimulatedBurn& run_;
  const burn::SessionOptions& o_;
  const std::vector<double> capacity_;
  const double seconds_;
};

}  // namespace

burn::EndpointInfo simulated_endpoint(const topo::Fabric& fabric, const routing::CableIndex& cables,
                                      topo::PortEnd port) {
  const topo::Node& n = fabric.node(port.node);
  const topo::Port& p = *n.port(port.port);
  burn::EndpointInfo e;
  const auto space = n.description.find(' ');
  e.host = n.description.substr(0, space);
  e.endpoint = fmt::format("{}:{}", space == std::string::npos ? "port" : n.description.substr(space + 1), port.port);
  e.port_guid = p.guid;
  e.lid = p.lid;
  e.link_layer = "InfiniBand";
  e.rate_gbps = cables.edge(cables.out_edge(port)).capacity_gbps;
  return e;
}

int run_simulated_burn(const SimulatedBurn& run, const burn::BurnOptions& o) {
  install_interrupt_handlers();
  FluidStageRunner runner(run, o);
  std::vector<std::shared_ptr<burn::SessionObserver>> observers;
  if (o.observer) observers.push_back(o.observer());
  burn::Session session(o, runner, std::move(observers));
  std::vector<burn::EndpointInfo> eps;
  for (const auto& p : run.endpoints) eps.push_back(simulated_endpoint(run.routes->fabric, *run.routes->cables, p));
  session.open(run.plan, std::move(eps));
  const burn::Summary s = session.run();
  return session.conclude(
      s, fmt::format("{} stage(s) simulated for {} ranks", session.stages().size(), run.endpoints.size()));
}

}  // namespace ibburn::fluid
