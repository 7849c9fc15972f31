#include "plan/simulated_burn.h"

#include <algorithm>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "burn/explainer.h"
#include "burn/results.h"
#include "burn/verdict.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/finding.h"
#include "common/interrupt.h"
#include "plan/simulate.h"

namespace ibburn::plan {
namespace {

// One stage through the fluid model: every direction of every flow at once, each at its
// max-min fair share of the (possibly degraded) cables on its route.
burn::StageResult simulate_stage(const RouteModel& m, const std::vector<topo::PortEnd>& endpoints,
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
      } catch (const RoutingError& e) {
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

}  // namespace

burn::EndpointInfo simulated_endpoint(const topo::Fabric& fabric, const CableIndex& cables, topo::PortEnd port) {
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
  const RouteModel& m = *run.routes;
  std::shared_ptr<burn::Explainer> explainer = o.explainer ? o.explainer() : nullptr;
  std::vector<burn::EndpointInfo> eps;
  for (const auto& p : run.endpoints) eps.push_back(simulated_endpoint(m.fabric, *m.cables, p));
  const std::vector<double> capacity = degraded_capacities(*m.cables, run.degrade);
  const double seconds = std::chrono::duration<double>(o.duration).count();
  burn::Plan plan = run.plan;

  make_dirs(o.out_dir);
  const std::string results = o.out_dir + "/results.jsonl", summary_path = o.out_dir + "/summary.json";
  write_file_atomic(results, burn::run_header(o, plan, eps).dump() + "\n");
  std::vector<burn::StageResult> stages;
  auto summarize = [&](bool complete) {
    burn::SummaryInput in;
    in.transport = burn::to_string(o.transport);
    in.stages_planned = static_cast<int>(plan.stages.size());
    in.complete = complete;
    in.interrupted = interrupted();
    in.stages = stages;
    in.endpoints = eps;
    in.options = {o.threshold, o.expect_gbps};
    burn::Summary s = burn::make_summary(in);
    if (explainer) explainer->explain(s, eps);
    burn::write_summary(summary_path, s.doc);
    return s;
  };
  summarize(false);  // before stage 1: a run killed in it leaves a summary that says running
  auto run_stage = [&](size_t i) {
    if (explainer) explainer->stage_starting(static_cast<int>(i + 1), plan.stages[i]);
    if (run.live_fabric) wait_stage(o.duration, run.tick);
    std::vector<double> edge_gbps;
    burn::StageResult r =
        simulate_stage(m, run.endpoints, capacity, plan.stages[i], static_cast<int>(i + 1), seconds, edge_gbps);
    if (run.on_traffic) run.on_traffic(edge_gbps, seconds);
    if (explainer) explainer->stage_finished(r);
    double total = 0;
    for (const auto& f : r.flows)
      for (const auto& d : f.directions) total += d.gbps;
    append_line_durable(results, burn::to_json(r).dump());
    stages.push_back(std::move(r));
    burn::Summary s = summarize(false);
    auto count = [&](const char* verdict) {
      auto it = s.doc.counts.find(verdict);
      return it == s.doc.counts.end() ? 0 : it->second;
    };
    if (!o.quiet)
      std::cerr << fmt::format("burn: sim stage {} \"{}\": {} flows, aggregate {:.0f} Gb/s, {} slow\n", i + 1,
                               plan.stages[i].name, plan.stages[i].flows.size(), total,
                               count("slow") + count("failed"));
    return s;
  };
  burn::run_stages(plan, explainer.get(), eps, run_stage);
  burn::Summary s = summarize(!interrupted());
  print_summary(std::cerr, "burn", s.findings);
  std::cerr << fmt::format("burn: {} stage(s) simulated for {} ranks, results in {}\n", stages.size(), eps.size(),
                           o.out_dir);
  if (interrupted()) return kExitInterrupted;
  return s.doc.pass ? kExitOk : kExitFindings;
}

}  // namespace ibburn::plan
