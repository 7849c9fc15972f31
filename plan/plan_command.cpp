#include "plan/plan_command.h"

#include <ostream>

#include "common/exit_codes.h"
#include "common/file_io.h"
#include "localization/burn_localize.h"
#include "plan/plan_output.h"
#include "planner/planner.h"
#include "plan/simulate.h"

namespace ibburn::plan {
namespace {

void print_suspect(std::ostream& out, const routing::RouteModel& m, const localization::Suspect& s) {
  out << "suspect cable " << m.cables->describe(m.fabric, s.edge) << " (confidence "
      << static_cast<int>(s.confidence * 100) << "%, " << s.slow_explained << " slow flows, " << s.healthy_through
      << " healthy)\n";
}

}  // namespace

int plan_command(const PlanCommandOptions& a, std::ostream& out) {
  auto routing = routing::load_route_model(a.routes);
  const topo::Fabric& fabric = routing->fabric;
  const routing::CableIndex& cables = *routing->cables;
  const routing::Router& router = *routing->router;

  const std::vector<topo::PortEnd> endpoints = load_endpoints(a.endpoints, fabric).ports;
  planner::PlanOptions po;
  po.cover_fraction = a.cover;
  po.max_stages = a.max_stages;
  planner::PlanResult result = planner::make_plan(fabric, cables, router, endpoints, po);

  out << "plan: " << endpoints.size() << " endpoints, " << cables.size() << " cable directions, "
      << result.stages.size() << " stage(s) (lower bound " << result.lower_bound << "), covered " << result.covered
      << "/" << cables.size() << " at >= " << static_cast<int>(a.cover * 100) << "% load\n";
  for (const auto& n : result.notes) out << "  note: " << n << "\n";
  if (!a.out.empty()) write_file_atomic(a.out, burn::to_json(to_burn_plan(result, "ibburn plan")).dump(1) + "\n");
  if (!a.proof.empty()) write_file_atomic(a.proof, coverage_proof(fabric, cables, result).dump(1) + "\n");

  int rc = result.covered == cables.size() ? kExitOk : kExitFindings;
  if (!a.simulate) return rc;
  std::unordered_map<routing::EdgeId, double> degrade;
  for (const auto& d : a.degrade) routing::parse_degrade(d, fabric, cables, degrade);
  auto rep = simulate_plan(fabric, cables, router, endpoints, result.stages, degrade, {});
  size_t slow = 0;
  for (const auto& f : rep.flows) slow += f.slow;
  for (size_t s = 0; s < rep.stage_aggregate_gbps.size(); ++s)
    out << "simulate: stage " << s + 1 << (s >= result.stages.size() ? " (probe)" : "") << ": aggregate "
        << static_cast<long long>(rep.stage_aggregate_gbps[s]) << " Gb/s\n";
  out << "simulate: " << slow << " slow flow(s) of " << rep.flows.size() << "\n";
  for (const auto& s : rep.suspects) {
    out << "  ";
    print_suspect(out, *routing, s);
  }
  if (!a.simulation_out.empty())
    write_file_atomic(a.simulation_out, simulation_to_json(fabric, cables, endpoints, rep).dump(1) + "\n");
  return slow ? kExitFindings : rc;
}

int plan_localize_command(const routing::RouteOptions& routes, const std::string& dir, std::ostream& out,
                          std::ostream& err) {
  auto routing = routing::load_route_model(routes);
  localization::BurnOutcome outcome = localization::load_burn_outcome(dir);
  std::vector<std::string> notes;
  auto suspects = localization::localize_burn(routing->fabric, *routing->cables, *routing->router, outcome, notes);
  for (const auto& n : notes) err << "ibburn: plan localize: " << n << "\n";
  if (suspects.empty()) out << "localize: no slow flow to explain\n";
  for (const auto& s : suspects) print_suspect(out, *routing, s);
  write_file_atomic(
      dir + "/suspects.json",
      nlohmann::json{{"suspects", localization::suspects_to_json(routing->fabric, *routing->cables, suspects)},
                     {"notes", notes}}
              .dump(1) +
          "\n");
  return suspects.empty() ? kExitOk : kExitFindings;
}

}  // namespace ibburn::plan
